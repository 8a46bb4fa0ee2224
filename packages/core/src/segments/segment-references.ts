import type { RulePath } from "./parse-rule.ts";
import type { Rule } from "./rule-tree.ts";

/**
 * How many segments deep a rule may reach through "is in segment" (the rule's own segment not
 * counted). Saving refuses cycles; this bounds what evaluation and compilation will follow even
 * if a cycle got into the data by other means.
 */
export const MAX_SEGMENT_NESTING = 10;

/** A segment condition in a rule, with where it sits. */
export interface SegmentReference {
  segmentId: string;
  path: RulePath;
}

/** Every "is in segment" condition of the rule, in tree order. */
export function segmentReferences(rule: Rule, path: RulePath = []): SegmentReference[] {
  switch (rule.kind) {
    case "and":
    case "or":
      return rule.children.flatMap((child, index) => segmentReferences(child, [...path, "children", index]));
    case "not":
      return segmentReferences(rule.child, [...path, "child"]);
    case "segment":
      return [{ segmentId: rule.segmentId, path }];
    default:
      return [];
  }
}

/**
 * The chain `[segmentId, …, segmentId]` that saving `segmentId` with a rule naming `references`
 * would close, or null when there is none. `dependencies` maps each other segment to the segments
 * its rule names; `segmentId`'s own entry, if any, is ignored (it is what is being replaced).
 */
export function findSegmentCycle(
  segmentId: string,
  references: readonly string[],
  dependencies: ReadonlyMap<string, readonly string[]>,
): string[] | null {
  const visited = new Set<string>();
  const walk = (id: string, chain: string[]): string[] | null => {
    if (id === segmentId) return [...chain, id];
    if (visited.has(id)) return null;
    visited.add(id);
    for (const next of dependencies.get(id) ?? []) {
      const found = walk(next, [...chain, id]);
      if (found) return found;
    }
    return null;
  };
  for (const reference of references) {
    const found = walk(reference, [segmentId]);
    if (found) return found;
  }
  return null;
}
