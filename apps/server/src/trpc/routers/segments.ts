import { SEGMENT_PRESETS, decideAccess, describeRule, describeRuleProblems, hasControlCharacters, parseRule, plainText, segmentReferences, type Rule } from "@herald/core";
import {
  appendAudit,
  countSegment,
  createSegment,
  deleteSegment,
  findSegment,
  findSegmentNames,
  listActivityNames,
  listAttributeNames,
  listSegmentDependents,
  listSegments,
  recordSegmentCount,
  sampleSegment,
  segmentQuery,
  updateSegment,
  type SegmentRecord,
} from "@herald/db";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { compileRefusal, requireRule, saveRefusal } from "../../segments/segment-refusals.ts";
import type { Context } from "../context.ts";
import { memberProcedure, router } from "../trpc.ts";

/** A live count (preview, count) gives up after this long rather than hold a connection. */
const COUNT_TIMEOUT_MS = 10_000;
const SAMPLE_SIZE = 20;

const IdInput = z.object({ id: z.string().regex(/^[1-9]\d{0,17}$/, "must be a segment id") });
const DescriptionSchema = z
  .string()
  .trim()
  .max(2000, "must be at most 2000 characters")
  .refine((text) => !hasControlCharacters(text), "must not contain control characters other than line breaks and tabs");
// The rule is typed for callers here and parsed in the handler by requireRule, whose refusal
// names each node's path as `rule.children[2].value`.
const RuleInput = z.custom<Rule>((value) => value !== undefined, "is required");

/** The segment's rule in plain words, naming the segments it refers to. */
function wordsOf(rule: unknown, names: Record<string, string>): string {
  const parsed = parseRule(rule);
  return parsed.ok ? describeRule(parsed.rule, names) : `(this rule no longer parses: ${describeRuleProblems(parsed.problems)})`;
}

function referencedIds(rules: unknown[]): string[] {
  const ids = rules.flatMap((rule) => {
    const parsed = parseRule(rule);
    return parsed.ok ? segmentReferences(parsed.rule).map((r) => r.segmentId) : [];
  });
  return [...new Set(ids)];
}

function toSummary(s: SegmentRecord, names: Record<string, string>) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    words: wordsOf(s.rule, names),
    size: s.lastCount,
    sizeCountedAt: s.lastCountedAt?.toISOString() ?? null,
    lastUsedAt: s.lastUsedAt?.toISOString() ?? null,
    updatedAt: s.updatedAt.toISOString(),
    updatedBy: s.updatedBy,
  };
}

async function requireSegment(ctx: Context, id: string): Promise<SegmentRecord> {
  const found = await findSegment(ctx.database.pool, id);
  if (!found) throw new AppError("NOT_FOUND", `There is no segment ${id}`);
  return found;
}

function countTimedOut(): AppError {
  return new AppError("UNAVAILABLE", `Counting took longer than ${COUNT_TIMEOUT_MS / 1000} seconds; try a narrower rule, or try again when the database is less busy`);
}

export const segmentsRouter = router({
  /** Segments in name order, each with its plain words and last known size (see `count`). */
  list: memberProcedure
    .input(z.object({ search: z.string().max(200).optional(), cursor: z.string().max(200).nullish(), limit: z.number().int().min(1).max(100).default(50) }))
    .query(async ({ ctx, input }) => {
      const page = await listSegments(ctx.database.pool, { search: input.search?.trim() || undefined, after: input.cursor ?? null, limit: input.limit });
      const names = await findSegmentNames(ctx.database.pool, referencedIds(page.items.map((s) => s.rule)));
      return { items: page.items.map((s) => toSummary(s, names)), nextCursor: page.nextCursor };
    }),

  /** A segment with its rule, the segments that name it, and whether the caller may edit it. */
  get: memberProcedure.input(IdInput).query(async ({ ctx, input }) => {
    const segment = await requireSegment(ctx, input.id);
    const names = await findSegmentNames(ctx.database.pool, referencedIds([segment.rule]));
    return {
      segment: { ...toSummary(segment, names), rule: segment.rule as Rule, createdAt: segment.createdAt.toISOString() },
      usedBy: await listSegmentDependents(ctx.database.pool, input.id),
      canEdit: decideAccess(ctx.access, "segments.update", ctx.member.role) === "allowed",
    };
  }),

  /** Counts a saved segment now and keeps the number for the list. */
  count: memberProcedure.input(IdInput).query(async ({ ctx, input }) => {
    const segment = await requireSegment(ctx, input.id);
    const rule = requireRule(segment.rule);
    const now = new Date();
    const query = await segmentQuery(ctx.database.pool, rule, now).catch(compileRefusal);
    const size = await countSegment(ctx.database.pool, query, COUNT_TIMEOUT_MS);
    if (size === null) throw countTimedOut();
    await recordSegmentCount(ctx.database.pool, input.id, rule, size, now);
    return { size, countedAt: now.toISOString() };
  }),

  /** The built-in starting points, as ordinary rules to copy. */
  presets: memberProcedure.query(() => ({
    items: SEGMENT_PRESETS.map((p) => ({ key: p.key, name: p.name, description: p.description, rule: p.rule, words: describeRule(p.rule) })),
  })),

  /**
   * What a rule (saved or not) selects right now: the count (null when it took too long), the
   * first 20 members, and the rule in plain words.
   */
  // A mutation though it writes nothing: a rule of up to 32 KiB does not fit in a GET's URL.
  preview: memberProcedure.input(z.object({ rule: RuleInput })).mutation(async ({ ctx, input }) => {
    const rule = requireRule(input.rule);
    const query = await segmentQuery(ctx.database.pool, rule, new Date()).catch(compileRefusal);
    const [count, sample, names] = await Promise.all([
      countSegment(ctx.database.pool, query, COUNT_TIMEOUT_MS),
      sampleSegment(ctx.database.pool, query, SAMPLE_SIZE),
      findSegmentNames(ctx.database.pool, referencedIds([rule])),
    ]);
    return { count, sample, words: describeRule(rule, names) };
  }),

  create: memberProcedure
    .input(z.object({ name: plainText(200), description: DescriptionSchema.default(""), rule: RuleInput }))
    .mutation(async ({ ctx, input }) => {
      const rule = requireRule(input.rule);
      const outcome = await createSegment(ctx.database.pool, { name: input.name, description: input.description, rule, memberId: ctx.member.id });
      if (outcome.kind !== "saved") throw saveRefusal(outcome, input.name, rule);
      await appendAudit(ctx.database.prisma, {
        actorMemberId: ctx.member.id,
        actor: ctx.member.email,
        action: "segments.create",
        target: `segment:${outcome.id}`,
        detail: { name: input.name, rule },
        ip: ctx.ip,
      });
      return { id: outcome.id };
    }),

  update: memberProcedure
    .input(IdInput.extend({ name: plainText(200).optional(), description: DescriptionSchema.optional(), rule: RuleInput.optional() }))
    .mutation(async ({ ctx, input }) => {
      const rule = input.rule === undefined ? undefined : requireRule(input.rule);
      const change = { name: input.name, description: input.description, rule };
      const outcome = await updateSegment(ctx.database.pool, input.id, { ...change, memberId: ctx.member.id });
      if (outcome.kind !== "saved") throw saveRefusal(outcome, input.name, rule);
      await appendAudit(ctx.database.prisma, {
        actorMemberId: ctx.member.id,
        actor: ctx.member.email,
        action: "segments.update",
        target: `segment:${input.id}`,
        detail: Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)),
        ip: ctx.ip,
      });
      return { id: input.id };
    }),

  /** Deletes a segment no other segment names and no broadcast refers to. */
  delete: memberProcedure.input(IdInput).mutation(async ({ ctx, input }) => {
    const outcome = await deleteSegment(ctx.database.pool, input.id);
    if (outcome.kind === "not_found") throw new AppError("NOT_FOUND", `There is no segment ${input.id}`);
    if (outcome.kind === "in_use") {
      const by =
        outcome.segments.length > 0
          ? `the rule of ${outcome.segments.map((s) => JSON.stringify(s.name)).join(", ")}`
          : outcome.table === "broadcasts"
            ? "a broadcast"
            : `rows of herald.${outcome.table}`;
      throw new AppError("CONFLICT", `Segment ${input.id} is used by ${by}, so it cannot be deleted`, { details: { usedBy: outcome.segments } });
    }
    await appendAudit(ctx.database.prisma, {
      actorMemberId: ctx.member.id,
      actor: ctx.member.email,
      action: "segments.delete",
      target: `segment:${input.id}`,
      detail: { name: outcome.name },
      ip: ctx.ip,
    });
    return { ok: true as const };
  }),

  /** Attribute names seen on users (from a sample), each with the kind of value it holds: the builder's picker. */
  attributeNames: memberProcedure.query(async ({ ctx }) => ({ items: await listAttributeNames(ctx.database.pool) })),

  /** Activity names seen in the data, with when each was last seen: the builder's picker. */
  activityNames: memberProcedure.query(async ({ ctx }) => ({
    items: (await listActivityNames(ctx.database.pool)).map((a) => ({ name: a.name, lastSeenAt: a.lastSeenAt.toISOString() })),
  })),
});
