import { describeRuleProblems, formatRulePath, parseRule, segmentReferences, type Rule, type RulePath } from "@herald/core";
import { SegmentCompileError, type SaveSegmentOutcome } from "@herald/db";
import { AppError } from "../errors.ts";

/**
 * The rule of a request, parsed: a refusal names each bad node's path in its message
 * ("rule.children[2].value: must be a number") and lists them as `details.problems`.
 */
export function requireRule(value: unknown): Rule {
  const parsed = parseRule(value);
  if (!parsed.ok) throw new AppError("BAD_REQUEST", describeRuleProblems(parsed.problems), { details: { problems: parsed.problems } });
  return parsed.rule;
}

/** A compile failure (a missing or cyclic named segment) as the refusal it is; anything else rethrown. */
export function compileRefusal(error: unknown): never {
  if (error instanceof SegmentCompileError) {
    throw new AppError("BAD_REQUEST", error.message, { details: { problems: [{ path: formatRulePath(error.path), at: error.path, message: error.reason }] } });
  }
  throw error;
}

/** Where in the rule it names segment `id` first, for a refusal about that segment. */
function pathOf(rule: Rule, id: string): RulePath {
  return [...(segmentReferences(rule).find((r) => r.segmentId === id)?.path ?? []), "segmentId"];
}

function ruleRefusal(problems: Array<{ at: RulePath; message: string }>): AppError {
  const listed = problems.map((p) => ({ path: formatRulePath(p.at), at: [...p.at], message: p.message }));
  return new AppError("BAD_REQUEST", describeRuleProblems(listed), { details: { problems: listed } });
}

/** A save the database refused, as an AppError that says which node or field is at fault. */
export function saveRefusal(outcome: Exclude<SaveSegmentOutcome, { kind: "saved" }>, name: string | undefined, rule: Rule | undefined): AppError {
  switch (outcome.kind) {
    case "not_found":
      return new AppError("NOT_FOUND", "There is no such segment");
    case "name_taken":
      return new AppError("CONFLICT", `name: a segment named ${JSON.stringify(name)} already exists`);
    case "missing_segments":
      return ruleRefusal(outcome.ids.map((id) => ({ at: pathOf(rule!, id), message: `there is no segment ${id}` })));
    case "cycle": {
      const [self, next] = outcome.chain;
      const loop = outcome.chain.map((s) => JSON.stringify(s.name)).join(" → ");
      const message = self!.id === next!.id ? "a segment cannot include itself" : `segment ${JSON.stringify(next!.name)} includes this one, so this would make a loop: ${loop}`;
      return ruleRefusal([{ at: pathOf(rule!, next!.id), message }]);
    }
  }
}
