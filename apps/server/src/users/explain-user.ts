import { explainVerdict, type Channel, type Explanation, type GateDetail, type Lane } from "@herald/core";
import { evaluateGates, type Sql } from "@herald/db";
import type { ProviderRegistry } from "../providers/provider-registry.ts";
import type { ProviderSpec } from "../providers/provider-kinds.ts";

/** One channel step Explain asks about: as a notification type routes it, or as support picked it. */
export interface ExplainStepInput {
  channel: Channel;
  category: string;
  lane: Lane;
}

export interface ExplainDependencies {
  sql: Sql;
  providers: ProviderRegistry & { specs?: () => ProviderSpec[] };
  defaultTimezone: string;
  now: Date;
}

/**
 * What would happen to each step if it were sent to this user now. The verdicts come from
 * evaluateGates — the function the dispatcher calls for every batch — so Explain and a real send
 * cannot disagree; the provider is the route the dispatcher would take (its primary).
 */
export async function explainForUser(
  deps: ExplainDependencies,
  user: { id: string; timezone: string | null },
  steps: readonly ExplainStepInput[],
): Promise<Explanation[]> {
  const verdicts = await evaluateGates(
    deps.sql,
    steps.map((s) => ({ userId: user.id, channel: s.channel, category: s.category, lane: s.lane })),
    deps.now,
    deps.defaultTimezone,
  );
  const specs = deps.providers.specs?.() ?? [];
  return steps.map((step, i) => {
    const verdict = verdicts[i]!;
    const route = deps.providers.route(step.channel);
    const name = route?.primary.name ?? null;
    const kind = specs.find((s) => s.name === name)?.kind ?? (name?.startsWith("sandbox-") ? "sandbox" : null);
    const detail = verdict.detail as GateDetail & { category?: string };
    return explainVerdict({
      channel: step.channel,
      lane: step.lane,
      category: detail.category ?? step.category,
      verdict: verdict.verdict,
      reason: verdict.reason,
      deferUntil: verdict.deferUntil,
      address: verdict.address,
      tokens: verdict.tokens,
      detail,
      provider: name ? { kind, name } : null,
      timeZone: user.timezone ?? deps.defaultTimezone,
      now: deps.now,
    });
  });
}
