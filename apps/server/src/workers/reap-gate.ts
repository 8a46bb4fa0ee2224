/**
 * Whether this process may declare other workers dead. A heartbeat older than the silence means
 * its worker died only if the database could be reached all that while: after an outage every
 * worker's heartbeat is stale at once, and reaping then frees live workers' running jobs, whose
 * rows are sent a second time (the 10-minute faulted steady load, with a Postgres restart, sent
 * 216 duplicates against a budget of 161). So a process reaps only once its own heartbeats have
 * reached the database for a whole silence: by then every live worker has beaten again.
 */
export interface ReapGate {
  beatSucceeded(): void;
  beatFailed(): void;
  open(): boolean;
}

export function reapGate(silenceMs: number, now: () => number = () => performance.now()): ReapGate {
  let reachableSince: number | null = null;
  return {
    beatSucceeded: () => void (reachableSince ??= now()),
    beatFailed: () => void (reachableSince = null),
    open: () => reachableSince !== null && now() - reachableSince >= silenceMs,
  };
}
