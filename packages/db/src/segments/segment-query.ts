import { MAX_SEGMENT_NESTING, describeRuleProblems, parseRule, segmentReferences, type Rule } from "@herald/core";
import type { Sql } from "../sql.ts";
import { compileSegment, type SegmentQuery } from "./compile-segment.ts";

/**
 * The rules of every segment `rule` names, directly or through other segments, by id: one query
 * per level of nesting. Stored rules are parsed again on the way out (zod at the boundary), so a
 * row edited by hand into something invalid fails here with its id, not inside the compiler.
 */
export async function loadNamedRules(sql: Sql, rule: Rule): Promise<Map<string, Rule>> {
  const rules = new Map<string, Rule>();
  let wanted = [...new Set(segmentReferences(rule).map((r) => r.segmentId))];
  // One level more than the compiler follows, so it (not a silent gap here) reports the depth.
  for (let level = 0; wanted.length > 0 && level <= MAX_SEGMENT_NESTING; level++) {
    const { rows } = await sql.query<{ id: string; rule: unknown }>("SELECT id::text, rule FROM herald.segments WHERE id = ANY ($1::bigint[])", [wanted]);
    const next = new Set<string>();
    for (const row of rows) {
      const parsed = parseRule(row.rule);
      if (!parsed.ok) throw new Error(`segment ${row.id} has a stored rule that no longer parses: ${describeRuleProblems(parsed.problems)}`);
      rules.set(row.id, parsed.rule);
      for (const reference of segmentReferences(parsed.rule)) if (!rules.has(reference.segmentId)) next.add(reference.segmentId);
    }
    wanted = [...next];
  }
  return rules;
}

/** A rule compiled with the segments it names loaded from the database. */
export async function segmentQuery(sql: Sql, rule: Rule, now: Date): Promise<SegmentQuery> {
  const named = await loadNamedRules(sql, rule);
  return compileSegment(rule, { now, resolveSegment: (id) => named.get(id) ?? null });
}
