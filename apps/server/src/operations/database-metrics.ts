import { listBacklog, listBreakers, type Sql } from "@herald/db";
import { Gauge, Registry } from "prom-client";

const BREAKER_STATE_VALUE = { closed: 0, half_open: 1, open: 2 } as const;

/**
 * Gauges that describe the database, read at scrape time: every process answers the same, so
 * a scrape of any one of them is the whole truth (no `herald_process` label, and no sum across
 * processes in the queries).
 */
export async function databaseRegistry(sql: Sql): Promise<Registry> {
  const registry = new Registry();
  const [backlog, breakers] = await Promise.all([listBacklog(sql), listBreakers(sql)]);

  const depth = new Gauge({
    name: "herald_queue_depth",
    help: "Notifications due and not yet sent, by channel, lane and state (waiting: no job yet; in_flight: holding a job).",
    labelNames: ["channel", "lane", "state"] as const,
    registers: [registry],
  });
  const oldest = new Gauge({
    name: "herald_queue_oldest_age_seconds",
    help: "How long the longest-waiting due notification has been due, by channel and lane (0 when nothing is due).",
    labelNames: ["channel", "lane"] as const,
    registers: [registry],
  });
  const now = Date.now();
  for (const lane of backlog) {
    depth.set({ channel: lane.channel, lane: lane.lane, state: "waiting" }, lane.waiting);
    depth.set({ channel: lane.channel, lane: lane.lane, state: "in_flight" }, lane.inFlight);
    oldest.set({ channel: lane.channel, lane: lane.lane }, lane.oldestDueAt ? Math.max(0, now - lane.oldestDueAt.getTime()) / 1000 : 0);
  }

  const breakerState = new Gauge({
    name: "herald_breaker_state",
    help: "Circuit breaker per provider (and push platform): 0 closed, 1 half-open, 2 open.",
    labelNames: ["breaker"] as const,
    registers: [registry],
  });
  for (const breaker of breakers) breakerState.set({ breaker: breaker.key }, BREAKER_STATE_VALUE[breaker.state]);
  return registry;
}
