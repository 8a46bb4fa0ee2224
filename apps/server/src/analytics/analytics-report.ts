import { bucketsBetween, dayIn, ratesOf, type AnalyticsFilterInput, type Granularity, type Rates } from "@herald/core";
import {
  getAnalyticsFreshness,
  listAnalyticsDimensions,
  sumAnalytics,
  sumSkipReasons,
  type AnalyticsCounters,
  type AnalyticsFilter,
  type AnalyticsGroup,
} from "@herald/db";
import type pg from "pg";

/** Counters with their rates, as every chart row carries them. */
export interface MeasuredRow {
  counters: AnalyticsCounters;
  rates: Rates;
}

const ZERO: AnalyticsCounters = {
  created: 0, skipped: 0, sent: 0, delivered: 0, failed: 0, bounced: 0, dead: 0, canceled: 0,
  opened: 0, opened_by_proxy: 0, clicked: 0, read: 0, unsubscribed: 0, complained: 0,
};

function measured(counters: AnalyticsCounters): MeasuredRow {
  return { counters, rates: ratesOf(counters) };
}

function total(groups: readonly AnalyticsGroup[]): AnalyticsCounters {
  const sum = { ...ZERO };
  for (const g of groups) for (const k of Object.keys(sum) as Array<keyof AnalyticsCounters>) sum[k] += g.counters[k];
  return sum;
}

export function toDbFilter(f: AnalyticsFilterInput): AnalyticsFilter {
  return {
    from: f.from,
    to: f.to,
    channel: f.channel ?? null,
    type: f.type ?? null,
    broadcastId: f.broadcastId ?? null,
    templateKey: f.templateKey ?? null,
    templateVersion: f.templateVersion ?? null,
  };
}

/** What the filters can pick, the rollup's time zone and today in it, and how current it is. */
export async function analyticsOverview(pool: pg.Pool, now: Date) {
  const [freshness, dimensions] = await Promise.all([getAnalyticsFreshness(pool), listAnalyticsDimensions(pool)]);
  return {
    timeZone: freshness.timeZone,
    today: dayIn(now, freshness.timeZone),
    lastEventId: freshness.lastEventId,
    rolledUpAt: freshness.rolledUpAt?.toISOString() ?? null,
    builtAt: freshness.builtAt?.toISOString() ?? null,
    ...dimensions,
  };
}

/** The funnel per channel and over all channels, with skips by reason. */
export async function analyticsFunnel(pool: pg.Pool, filter: AnalyticsFilterInput) {
  const f = toDbFilter(filter);
  const [groups, skipReasons] = await Promise.all([sumAnalytics(pool, f, "channel"), sumSkipReasons(pool, f)]);
  return {
    channels: groups.map((g) => ({ channel: g.key, ...measured(g.counters) })),
    total: measured(total(groups)),
    skipReasons,
  };
}

/** One point per day or ISO week of the range, empty buckets included (their rates null). */
export async function analyticsSeries(pool: pg.Pool, filter: AnalyticsFilterInput, granularity: Granularity) {
  const groups = await sumAnalytics(pool, toDbFilter(filter), granularity);
  const byKey = new Map(groups.map((g) => [g.key, g.counters]));
  return {
    granularity,
    points: bucketsBetween(filter.from, filter.to, granularity).map((bucket) => ({ bucket, ...measured(byKey.get(bucket) ?? { ...ZERO }) })),
  };
}

/** Side by side: one row per broadcast, or per template version, within the filter. */
export async function analyticsComparison(pool: pg.Pool, filter: AnalyticsFilterInput, by: "broadcast" | "template_version") {
  const groups = await sumAnalytics(pool, toDbFilter(filter), by);
  return { by, groups: groups.map((g) => ({ key: g.key, label: g.label ?? g.key, ...measured(g.counters) })) };
}
