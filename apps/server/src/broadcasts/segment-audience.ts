import { describeRuleProblems, parseRule } from "@herald/core";
import { findSegment, segmentQuery } from "@herald/db";
import type { BroadcastAudience } from "./broadcast-audience.ts";

/** The broadcast audience through the segment compiler: the one query counts, dry runs and fan-outs share. */
export const segmentAudience: BroadcastAudience = {
  async ruleOf(sql, segmentId) {
    return (await findSegment(sql, segmentId))?.rule ?? null;
  },
  async query(sql, rule, now) {
    const parsed = parseRule(rule);
    if (!parsed.ok) throw new Error(`the broadcast's segment rule does not parse: ${describeRuleProblems(parsed.problems)}`);
    return segmentQuery(sql, parsed.rule, now);
  },
};
