import { z } from "zod";
import { utf8Bytes } from "../templates/utf8-bytes.ts";
import { MAX_RULE_BYTES, MAX_RULE_CONDITIONS, MAX_RULE_DEPTH, MAX_RULE_GROUPS, RuleNodeSchema, type Rule } from "./rule-tree.ts";

/** Where a node or field sits in a rule, from the root: ["children", 2, "value"]. */
export type RulePath = ReadonlyArray<string | number>;

/** One reason a rule was refused; `path` reads like `rule.children[2].value`. */
export interface RuleProblem {
  path: string;
  at: Array<string | number>;
  message: string;
}

export type ParsedRule = { ok: true; rule: Rule } | { ok: false; problems: RuleProblem[] };

/** `rule.children[2].value` for ["children", 2, "value"]. */
export function formatRulePath(path: RulePath, root = "rule"): string {
  return path.reduce<string>((text, key) => (typeof key === "number" ? `${text}[${key}]` : `${text}.${key}`), root);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The rule's size as JSON, or Infinity when a value nests too deep to serialise. */
function jsonBytes(value: unknown): number {
  try {
    return utf8Bytes(JSON.stringify(value) ?? "");
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * Depth and size, checked on the raw JSON before the structural parse: a tree nested thousands
 * deep is refused here without recursing, instead of overflowing the parser's stack.
 */
function checkRuleShape(value: unknown, ctx: z.RefinementCtx): void {
  let conditions = 0;
  let groups = 0;
  const stack: Array<{ node: unknown; path: Array<string | number>; depth: number }> = [{ node: value, path: [], depth: 1 }];
  while (stack.length > 0) {
    const { node, path, depth } = stack.pop()!;
    if (depth > MAX_RULE_DEPTH) {
      ctx.addIssue({ code: "custom", path, message: `is nested ${depth} levels deep: a rule may be at most ${MAX_RULE_DEPTH} levels deep` });
      return;
    }
    if (!isRecord(node)) continue;
    if ((node.kind === "and" || node.kind === "or") && Array.isArray(node.children)) {
      groups++;
      node.children.forEach((child, index) => stack.push({ node: child, path: [...path, "children", index], depth: depth + 1 }));
    } else if (node.kind === "not" && "child" in node) {
      groups++;
      stack.push({ node: node.child, path: [...path, "child"], depth: depth + 1 });
    } else {
      conditions++;
    }
  }
  if (conditions > MAX_RULE_CONDITIONS) {
    ctx.addIssue({ code: "custom", message: `has ${conditions} conditions: a rule may have at most ${MAX_RULE_CONDITIONS}` });
  }
  if (groups > MAX_RULE_GROUPS) {
    ctx.addIssue({ code: "custom", message: `has ${groups} groups: a rule may have at most ${MAX_RULE_GROUPS}` });
  }
  const bytes = jsonBytes(value);
  if (bytes > MAX_RULE_BYTES) {
    const size = Number.isFinite(bytes) ? `${Math.ceil(bytes / 1024)} KiB` : "too deeply nested";
    ctx.addIssue({ code: "custom", message: `is ${size} as JSON: a rule may be at most ${MAX_RULE_BYTES / 1024} KiB` });
  }
}

/** A segment's rule tree, limits included: at most 10 levels deep, 100 conditions, 100 groups and 32 KiB. */
export const RuleSchema: z.ZodType<Rule, unknown> = z.unknown().superRefine(checkRuleShape).pipe(RuleNodeSchema);

/** Parses a rule, turning zod's issues into problems that name each node's path. */
export function parseRule(value: unknown): ParsedRule {
  const parsed = RuleSchema.safeParse(value);
  if (parsed.success) return { ok: true, rule: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => ({
      path: formatRulePath(issue.path as RulePath),
      at: issue.path as Array<string | number>,
      message: issue.message,
    })),
  };
}

/** "rule.children[2].value: must be a number; rule.kind: …" — problems as one sentence. */
export function describeRuleProblems(problems: readonly RuleProblem[]): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join("; ");
}
