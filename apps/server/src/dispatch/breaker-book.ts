import {
  breakerAdmits,
  CLOSED_BREAKER,
  markTrial,
  recordBreakerResult,
  type BreakerPolicy,
  type BreakerResult,
  type BreakerState,
  type BreakerUpdate,
} from "@herald/core";
import { listBreakers, transitionBreaker, type Sql } from "@herald/db";

/**
 * Every provider's circuit breaker as this process sees it. The state lives in Postgres and is
 * written on transitions only (compare-and-set, so two workers cannot both take the trial);
 * failure counts between transitions stay in memory. Other processes' transitions are picked up
 * at most `refreshMs` later.
 */
export class BreakerBook {
  private states = new Map<string, BreakerState>();
  private loadedAt = 0;

  private readonly sql: Sql;
  private readonly policy: () => BreakerPolicy;
  private readonly refreshMs: number;

  constructor(sql: Sql, policy: () => BreakerPolicy, refreshMs = 1000) {
    this.sql = sql;
    this.policy = policy;
    this.refreshMs = refreshMs;
  }

  private async refresh(): Promise<void> {
    if (Date.now() - this.loadedAt < this.refreshMs) return;
    this.loadedAt = Date.now();
    for (const stored of await listBreakers(this.sql)) {
      const local = this.states.get(stored.key);
      this.states.set(stored.key, {
        state: stored.state,
        // Keep our own count while closed: only transitions are shared.
        consecutiveFailures: stored.state === "closed" && local?.state === "closed" ? local.consecutiveFailures : stored.consecutiveFailures,
        openedAt: stored.openedAt,
        reason: stored.reason,
      });
    }
  }

  state(key: string): BreakerState {
    return this.states.get(key) ?? CLOSED_BREAKER;
  }

  /** "yes", "no", or "trial" — and a trial is ours only if we win the transition to half-open. */
  async admit(key: string, now: Date): Promise<"yes" | "no" | "trial"> {
    await this.refresh();
    const current = this.state(key);
    const verdict = breakerAdmits(current, now, this.policy());
    if (verdict !== "trial") return verdict;
    return (await this.persist(key, current, markTrial(current, now))) ? "trial" : "no";
  }

  async record(key: string, result: BreakerResult, now: Date): Promise<void> {
    const current = this.state(key);
    const update = recordBreakerResult(current, result, now, this.policy());
    if (update.transition) await this.persist(key, current, update);
    else this.states.set(key, update.next);
  }

  private async persist(key: string, current: BreakerState, update: BreakerUpdate): Promise<boolean> {
    const won = await transitionBreaker(this.sql, key, current.state, update.next);
    if (won) this.states.set(key, update.next);
    else this.loadedAt = 0; // someone else moved it: re-read before deciding again
    return won;
  }
}
