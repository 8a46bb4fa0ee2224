import "./analytics.css";
import { RATE_THRESHOLDS } from "@herald/core/browser";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "../../components/ui/card.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { PageSpinner } from "../../components/ui/spinner.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { AnalyticsFilters, lastDays } from "./analytics-filters.tsx";
import type { AnalyticsFilter, AnalyticsOverview, Granularity } from "./analytics-types.ts";
import { ChartCard } from "./chart-card.tsx";
import { CHART_COLORS } from "./chart-colors.ts";
import { COMPARISON_COLUMNS, ComparisonChart } from "./comparison-chart.tsx";
import { FUNNEL_COLUMNS, FunnelChart, funnelRows } from "./funnel-chart.tsx";
import { RateSeriesChart, seriesColumns, type RateLine } from "./rate-series-chart.tsx";

const ENGAGEMENT: RateLine[] = [
  { rate: "deliveryRate", label: "Delivery rate", color: CHART_COLORS.muted },
  { rate: "openRate", label: "Open rate", color: CHART_COLORS.accent },
];
const BOUNCES: RateLine[] = [{ rate: "bounceRate", label: "Bounce rate", color: CHART_COLORS.warning }];
const COMPLAINTS: RateLine[] = [{ rate: "complaintRate", label: "Complaint rate", color: CHART_COLORS.danger }];

/** The Analytics page: waits for the rollup's time zone and today, then shows the last 30 days. */
export function AnalyticsPage() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.analytics.overview.queryOptions());
  if (overview.isPending) return <PageSpinner />;
  if (overview.isError) {
    return (
      <Card>
        <ErrorState error={overview.error} title="Could not load analytics" onRetry={() => overview.refetch()} retrying={overview.isFetching} />
      </Card>
    );
  }
  return <AnalyticsCharts overview={overview.data} />;
}

function AnalyticsCharts({ overview }: { overview: AnalyticsOverview }) {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<AnalyticsFilter>(() => lastDays(overview.today, 30));
  const [granularity, setGranularity] = useState<Granularity>("day");
  const [compareBy, setCompareBy] = useState<"broadcast" | "template_version">("template_version");
  const funnel = useQuery(trpc.analytics.funnel.queryOptions({ filter }));
  const series = useQuery(trpc.analytics.series.queryOptions({ filter, granularity }));
  const compare = useQuery(trpc.analytics.compare.queryOptions({ filter, by: compareBy }));
  const points = series.data?.points;
  const nothingSent = (points ?? []).every((p) => p.counters.sent === 0);
  const bucket = granularity === "day" ? "Day" : "Week of";
  const range = `${filter.from}–${filter.to}`;
  const noSends = "Nothing was sent in this range with these filters. Widen the range or clear a filter.";

  return (
    <div className="stack">
      <AnalyticsFilters overview={overview} filter={filter} onFilter={setFilter} granularity={granularity} onGranularity={setGranularity} />
      <p className="muted analytics-freshness">
        {`Days in ${overview.timeZone}, counted by the day each notification was sent. `}
        {overview.rolledUpAt ? `Up to date as of ${new Date(overview.rolledUpAt).toLocaleString()}.` : "Nothing rolled up yet."}
      </p>
      <ChartCard
        title="Funnel"
        description="Sent → delivered → opened → clicked, per channel. Opens are people's: privacy-proxy prefetches are counted apart."
        query={funnel}
        rows={funnel.data ? funnelRows(funnel.data) : undefined}
        columns={FUNNEL_COLUMNS}
        isEmpty={(funnel.data?.total.counters.sent ?? 0) === 0}
        emptyTitle="No sends in this range"
        emptyText={noSends}
        csvName={`funnel-${range}.csv`}
        chart={() => <FunnelChart answer={funnel.data!} />}
      />
      <ChartCard
        title="Open and delivery rates"
        description="Opens over delivered, deliveries over sent. A day without deliveries has no rate (—), not 0 %."
        query={series}
        rows={points}
        columns={seriesColumns(bucket, [{ key: "sent", heading: "Sent" }, { key: "delivered", heading: "Delivered" }, { key: "opened", heading: "Opened" }], ENGAGEMENT)}
        isEmpty={nothingSent}
        emptyTitle="No sends in this range"
        emptyText={noSends}
        csvName={`open-delivery-rates-${granularity}-${range}.csv`}
        chart={() => <RateSeriesChart points={points!} lines={ENGAGEMENT} />}
      />
      <div className="analytics-pair">
        <ChartCard
          title="Bounce rate"
          description="Bounces over sent. SES reviews an account at 5 %."
          query={series}
          rows={points}
          columns={seriesColumns(bucket, [{ key: "sent", heading: "Sent" }, { key: "bounced", heading: "Bounced" }], BOUNCES)}
          isEmpty={nothingSent}
          emptyTitle="No sends in this range"
          emptyText={noSends}
          csvName={`bounce-rate-${granularity}-${range}.csv`}
          chart={() => <RateSeriesChart points={points!} lines={BOUNCES} threshold={{ value: RATE_THRESHOLDS.bounceRate, label: "SES review 5 %" }} />}
        />
        <ChartCard
          title="Complaint rate"
          description="Spam reports over delivered. Gmail and Yahoo refuse bulk mail at 0.3 %."
          query={series}
          rows={points}
          columns={seriesColumns(bucket, [{ key: "delivered", heading: "Delivered" }, { key: "complained", heading: "Complaints" }], COMPLAINTS)}
          isEmpty={nothingSent}
          emptyTitle="No sends in this range"
          emptyText={noSends}
          csvName={`complaint-rate-${granularity}-${range}.csv`}
          chart={() => <RateSeriesChart points={points!} lines={COMPLAINTS} threshold={{ value: RATE_THRESHOLDS.complaintRate, label: "Gmail/Yahoo limit 0.3 %" }} />}
        />
      </div>
      <div className="analytics-compare-switch" role="group" aria-label="Compare">
        {(["template_version", "broadcast"] as const).map((by) => (
          <button key={by} type="button" className={compareBy === by ? "analytics-switch-button active" : "analytics-switch-button"} aria-pressed={compareBy === by} onClick={() => setCompareBy(by)}>
            {by === "broadcast" ? "Per broadcast" : "Per template version"}
          </button>
        ))}
      </div>
      <ChartCard
        title={compareBy === "broadcast" ? "Broadcasts side by side" : "Template versions side by side"}
        description="Each row's rates over its own deliveries, so a small version and a big one compare fairly."
        query={compare}
        rows={compare.data?.groups}
        columns={COMPARISON_COLUMNS(compareBy === "broadcast" ? "Broadcast" : "Template version")}
        isEmpty={(compare.data?.groups.length ?? 0) === 0}
        emptyTitle={compareBy === "broadcast" ? "No broadcasts in this range" : "No templated notifications in this range"}
        emptyText={compareBy === "broadcast" ? "Broadcasts sent in the range appear here side by side." : "Notifications sent from a published template version appear here, one row per version."}
        csvName={`compare-${compareBy}-${range}.csv`}
        chart={() => <ComparisonChart rows={compare.data!.groups.map((g) => ({ ...g, label: g.label.replace("@", " v") }))} />}
      />
    </div>
  );
}
