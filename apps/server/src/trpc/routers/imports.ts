import { ImportMappingSchema, mappingProblem, type ImportMapping } from "@herald/core";
import { appendAudit, discardImport, findImport, listImportErrors, listImports, startImport, type ImportDetail, type ImportSummary } from "@herald/db";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { previewImport } from "../../imports/preview-import.ts";
import type { Context } from "../context.ts";
import { memberProcedure, router } from "../trpc.ts";

const IdSchema = z.string().regex(/^\d{1,18}$/, "must be an import id");
const IdInput = z.object({ id: IdSchema });
const MappingInput = IdInput.extend({ mapping: ImportMappingSchema });

function toSummary(i: ImportSummary) {
  return { ...i, createdAt: i.createdAt.toISOString(), startedAt: i.startedAt?.toISOString() ?? null, finishedAt: i.finishedAt?.toISOString() ?? null };
}

async function requireImport(ctx: Context, id: string): Promise<ImportDetail> {
  const found = await findImport(ctx.database.pool, id);
  if (!found) throw new AppError("NOT_FOUND", `There is no import ${id}`);
  return found;
}

/** The mapping, checked against the file it is for. */
function requireFit(found: ImportDetail, mapping: ImportMapping): ImportMapping {
  const problem = mappingProblem(mapping, found.header);
  if (problem) throw new AppError("BAD_REQUEST", `mapping.${problem}`);
  return mapping;
}

export const importsRouter = router({
  list: memberProcedure
    .input(z.object({ cursor: IdSchema.nullish(), limit: z.number().int().min(1).max(100).default(25) }))
    .query(async ({ ctx, input }) => {
      const page = await listImports(ctx.database.pool, { cursor: input.cursor ?? null, limit: input.limit });
      // The upload route's limit, so the dashboard can refuse a file too large before sending it.
      return { items: page.items.map(toSummary), nextCursor: page.nextCursor, maxFileBytes: ctx.env.HERALD_IMPORT_MAX_MIB * 1024 * 1024 };
    }),

  /** An import with its header, first rows and mapping: what the mapping screen and progress need. */
  get: memberProcedure.input(IdInput).query(async ({ ctx, input }) => {
    const found = await requireImport(ctx, input.id);
    const mapping = found.mapping === null ? null : ImportMappingSchema.safeParse(found.mapping).data ?? null;
    return { ...toSummary(found), delimiter: found.delimiter, header: found.header, sample: found.sample, mapping };
  }),

  /** The first rows as they would be imported with this mapping, each accepted or refused with why. */
  preview: memberProcedure.input(MappingInput).query(async ({ ctx, input }) => {
    const found = await requireImport(ctx, input.id);
    const mapping = requireFit(found, input.mapping);
    return { rows: await previewImport(ctx.database.pool, found.header, found.sample, mapping, new Date()), totalRows: found.totalRows };
  }),

  /** Saves the mapping and queues the import; it runs in a worker and reports progress on `get`. */
  start: memberProcedure.input(MappingInput).mutation(async ({ ctx, input }) => {
    const found = await requireImport(ctx, input.id);
    const mapping = requireFit(found, input.mapping);
    const result = await startImport(ctx.database.pool, input.id, { kind: mapping.kind, mapping });
    if (result === "not_found") throw new AppError("NOT_FOUND", `There is no import ${input.id}`);
    if (result === "already_started") throw new AppError("CONFLICT", "This import has already started; upload the file again to import it once more");
    await appendAudit(ctx.database.prisma, {
      actorMemberId: ctx.member.id,
      actor: ctx.member.email,
      action: "imports.start",
      target: `import:${input.id}`,
      detail: { fileName: found.fileName, kind: mapping.kind, rows: found.totalRows },
      ip: ctx.ip,
    });
    return { id: input.id, status: "queued" as const };
  }),

  /** Refused rows in file order, a page at a time after row `cursor` (the whole report is GET /files/imports/:id/errors.csv). */
  errors: memberProcedure
    .input(IdInput.extend({ cursor: z.number().int().min(0).nullish(), limit: z.number().int().min(1).max(200).default(50) }))
    .query(async ({ ctx, input }) => {
      await requireImport(ctx, input.id);
      const items = await listImportErrors(ctx.database.pool, input.id, { afterRow: input.cursor ?? 0, limit: input.limit + 1 });
      const page = items.slice(0, input.limit);
      return { items: page, nextCursor: items.length > input.limit ? page[page.length - 1]!.row : null };
    }),

  /** Deletes an import that is not running, with its staged rows and error report. */
  discard: memberProcedure.input(IdInput).mutation(async ({ ctx, input }) => {
    const result = await discardImport(ctx.database.pool, input.id);
    if (result === "not_found") throw new AppError("NOT_FOUND", `There is no import ${input.id}`);
    if (result === "in_progress") throw new AppError("CONFLICT", "This import is running; discard it once it has finished");
    await appendAudit(ctx.database.prisma, { actorMemberId: ctx.member.id, actor: ctx.member.email, action: "imports.discard", target: `import:${input.id}`, ip: ctx.ip });
    return { id: input.id };
  }),
});
