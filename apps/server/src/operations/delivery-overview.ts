import { countRecentAttempts, listBacklog, listBreakers, listBuckets, type Sql } from "@herald/db";

/** The window the Delivery page's throughput and error rates cover. */
export const RECENT_WINDOW_MS = 15 * 60_000;

/** The Delivery page's live picture: backlog and throughput per lane, health per provider. */
export async function deliveryOverview(sql: Sql, now = new Date()) {
  const [backlog, attempts, breakers, buckets] = await Promise.all([
    listBacklog(sql),
    countRecentAttempts(sql, RECENT_WINDOW_MS),
    listBreakers(sql),
    listBuckets(sql),
  ]);

  const lanes = backlog.map((b) => {
    const mine = attempts.filter((a) => a.channel === b.channel && a.lane === b.lane);
    const sent = mine.filter((a) => a.outcome === "sent").reduce((n, a) => n + a.count, 0);
    return {
      channel: b.channel,
      lane: b.lane,
      waiting: b.waiting,
      inFlight: b.inFlight,
      oldestAgeSeconds: b.oldestDueAt ? Math.max(0, Math.round((now.getTime() - b.oldestDueAt.getTime()) / 1000)) : null,
      sentRecently: sent,
      failedRecently: mine.reduce((n, a) => n + a.count, 0) - sent,
    };
  });

  const names = new Set([...buckets.map((b) => b.provider), ...attempts.map((a) => a.provider).filter(Boolean)]);
  for (const breaker of breakers) names.add(breaker.key.split(":")[0]!);
  const providers = [...names].sort().map((provider) => {
    const mine = attempts.filter((a) => a.provider === provider);
    const total = mine.reduce((n, a) => n + a.count, 0);
    const bucket = buckets.find((b) => b.provider === provider);
    return {
      provider,
      bucket: bucket ? { ratePerSecond: bucket.ratePerSecond, burst: bucket.burst, tokens: bucket.tokens } : null,
      // Push breakers are per platform (fcm-push:android): each is listed under its provider.
      breakers: breakers
        .filter((b) => b.key === provider || b.key.startsWith(`${provider}:`))
        .map((b) => ({ key: b.key, state: b.state, openedAt: b.openedAt?.toISOString() ?? null, reason: b.reason })),
      attempts: total,
      sent: mine.filter((a) => a.outcome === "sent").reduce((n, a) => n + a.count, 0),
      errors: mine
        .filter((a) => a.outcome !== "sent")
        .map((a) => ({ outcome: a.outcome, code: a.code, count: a.count, rate: total > 0 ? a.count / total : 0 }))
        .sort((x, y) => y.count - x.count),
    };
  });
  return { generatedAt: now.toISOString(), windowMinutes: RECENT_WINDOW_MS / 60_000, lanes, providers };
}
