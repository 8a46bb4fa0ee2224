import { CategoryInputSchema, CategoryKeySchema } from "@herald/core";
import { findCategory, listCategories, type CategoryRecord } from "@herald/db";
import { z } from "zod";
import { removeCategory, saveCategory } from "../../config/category-changes.ts";
import { AppError } from "../../errors.ts";
import { memberProcedure, router } from "../trpc.ts";
import { configActor } from "./config-actor.ts";

function categoryView(c: CategoryRecord) {
  return { ...c, updatedAt: c.updatedAt.toISOString() };
}

// Flat like the REST body (plus its key), so a bad field has the same path and words in both.
const CategoryUpsertSchema = z.strictObject({ key: CategoryKeySchema, ...CategoryInputSchema.shape });

export const categoriesRouter = router({
  /** Every category with its label, mandatory flag and per-channel defaults (the broadcast composer's picker reads it). */
  list: memberProcedure.query(async ({ ctx }) => ({ categories: (await listCategories(ctx.database.pool)).map(categoryView) })),

  get: memberProcedure.input(z.strictObject({ key: CategoryKeySchema })).query(async ({ ctx, input }) => {
    const category = await findCategory(ctx.database.pool, input.key);
    if (!category) throw new AppError("NOT_FOUND", `There is no category "${input.key}"`);
    return { category: categoryView(category) };
  }),

  upsert: memberProcedure.input(CategoryUpsertSchema).mutation(async ({ ctx, input }) => {
    const { key, ...category } = input;
    const saved = await saveCategory(ctx.database, configActor(ctx), key, category);
    return { category: categoryView(saved.category), created: saved.created };
  }),

  /** Refused while a notification type, a broadcast or a user's preference names the category. */
  delete: memberProcedure.input(z.strictObject({ key: CategoryKeySchema })).mutation(async ({ ctx, input }) => {
    await removeCategory(ctx.database, configActor(ctx), input.key);
    return { deleted: input.key };
  }),
});
