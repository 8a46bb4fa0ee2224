import type { CategoryInput } from "@herald/core";
import { appendAudit, deleteCategory, findCategory, upsertCategory, type CategoryRecord, type Database } from "@herald/db";
import { AppError } from "../errors.ts";
import type { ConfigActor } from "./config-actor.ts";

/**
 * Creates or replaces a category, audit-logged with what it was before. REST and tRPC both call
 * this, so both refuse the same input with the same words.
 */
export async function saveCategory(
  database: Database,
  actor: ConfigActor,
  key: string,
  input: CategoryInput,
): Promise<{ category: CategoryRecord; created: boolean }> {
  const before = await findCategory(database.pool, key);
  const result = await upsertCategory(database.pool, key, input);
  if (result.kind === "alias_taken") {
    throw new AppError("CONFLICT", `"${result.alias}" already names category "${result.owner}"`, { apiCode: "alias_taken" });
  }
  await appendAudit(database.prisma, {
    actorMemberId: actor.memberId,
    actor: actor.label,
    action: result.created ? "categories.create" : "categories.update",
    target: key,
    detail: { from: before ? auditable(before) : null, to: auditable(result.category) },
    ip: actor.ip,
  });
  return { category: result.category, created: result.created };
}

/** Deletes a category nothing uses; otherwise a refusal that says what uses it. */
export async function removeCategory(database: Database, actor: ConfigActor, key: string): Promise<void> {
  const before = await findCategory(database.pool, key);
  const result = await deleteCategory(database.pool, key);
  if (result.kind === "not_found" || !before) throw new AppError("NOT_FOUND", `There is no category "${key}"`, { apiCode: "not_found" });
  if (result.kind === "in_use") {
    const { notificationTypes, broadcasts, hasPreferences } = result.usage;
    const uses = [
      notificationTypes.length > 0 ? `notification type${notificationTypes.length > 1 ? "s" : ""} ${notificationTypes.join(", ")}` : null,
      broadcasts > 0 ? `${broadcasts} broadcast${broadcasts > 1 ? "s" : ""}` : null,
      hasPreferences ? "users' preferences (their opt-outs would be lost)" : null,
    ].filter(Boolean);
    throw new AppError("CONFLICT", `Category "${key}" is used by ${uses.join(" and ")}: it stays`, {
      apiCode: "category_in_use",
      details: result.usage,
    });
  }
  await appendAudit(database.prisma, {
    actorMemberId: actor.memberId,
    actor: actor.label,
    action: "categories.delete",
    target: key,
    detail: { from: auditable(before) },
    ip: actor.ip,
  });
}

function auditable(category: CategoryRecord) {
  const { updatedAt: _updatedAt, ...rest } = category;
  return rest;
}
