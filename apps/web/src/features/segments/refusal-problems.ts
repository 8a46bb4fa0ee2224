import { isTRPCClientError } from "@trpc/client";
import { problemKey, type GroupDraft, type NodeDraft } from "./rule-draft.ts";

/**
 * The server's refusal of a rule (`details.problems`, each with the path of the node at fault)
 * as problems keyed to the builder's nodes, or null when the error is not such a refusal.
 */
export function refusalProblems(error: unknown, root: GroupDraft): Map<string, string> | null {
  if (!isTRPCClientError(error)) return null;
  const details: unknown = (error.data as { details?: unknown } | undefined)?.details;
  const problems = (details as { problems?: unknown } | undefined)?.problems;
  if (!Array.isArray(problems) || problems.length === 0) return null;
  const found = new Map<string, string>();
  for (const problem of problems as Array<{ at?: unknown; message?: unknown }>) {
    if (!Array.isArray(problem.at) || typeof problem.message !== "string") continue;
    const key = problemKey(nodeAt(root, problem.at).id, "node");
    if (!found.has(key)) found.set(key, sentence(problem.message));
  }
  return found.size > 0 ? found : null;
}

/**
 * The node a rule path ends in. A negation is a flag on the node it wraps, so `child` stays on
 * the same node; the first key that is not a step into a group (a field name) ends the walk.
 */
function nodeAt(root: GroupDraft, at: ReadonlyArray<unknown>): NodeDraft {
  let node: NodeDraft = root;
  for (let i = 0; i < at.length; i++) {
    if (at[i] === "child") continue;
    const index = at[i + 1];
    if (at[i] !== "children" || node.node !== "group" || typeof index !== "number") break;
    const next: NodeDraft | undefined = node.children[index];
    if (!next) break;
    node = next;
    i++;
  }
  return node;
}

function sentence(text: string): string {
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}
