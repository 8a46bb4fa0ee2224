import { formatRate } from "@herald/core/browser";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Column } from "./analytics-csv.ts";
import type { ComparisonAnswer } from "./analytics-types.ts";
import { CHART_COLORS, percent } from "./chart-colors.ts";
import { formatNumber } from "./format-number.ts";

export type ComparisonRow = ComparisonAnswer["groups"][number];

export const COMPARISON_COLUMNS = (heading: string): Column<ComparisonRow>[] => [
  { heading, value: (r) => r.label },
  { heading: "Sent", value: (r) => formatNumber(r.counters.sent), numeric: true },
  { heading: "Delivered", value: (r) => formatNumber(r.counters.delivered), numeric: true },
  { heading: "Opened", value: (r) => formatNumber(r.counters.opened), numeric: true },
  { heading: "Clicked", value: (r) => formatNumber(r.counters.clicked), numeric: true },
  { heading: "Delivery rate", value: (r) => formatRate(r.rates.deliveryRate), numeric: true },
  { heading: "Open rate", value: (r) => formatRate(r.rates.openRate), numeric: true },
  { heading: "Click rate", value: (r) => formatRate(r.rates.clickRate), numeric: true },
  { heading: "Bounce rate", value: (r) => formatRate(r.rates.bounceRate), numeric: true },
];

/** Open, click and delivery rates of each broadcast or template version, side by side. */
export function ComparisonChart({ rows }: { rows: readonly ComparisonRow[] }) {
  const data = rows.map((r) => ({ label: r.label, open: percent(r.rates.openRate), click: percent(r.rates.clickRate), delivery: percent(r.rates.deliveryRate) }));
  return (
    <ResponsiveContainer width="100%" height={280}>
      <BarChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
        <CartesianGrid stroke={CHART_COLORS.grid} vertical={false} />
        <XAxis dataKey="label" tickLine={false} />
        <YAxis unit=" %" width={64} domain={[0, 100]} />
        <Tooltip formatter={(v) => (v === null || v === undefined ? "—" : `${v} %`)} />
        <Legend />
        <Bar dataKey="delivery" name="Delivery rate" fill={CHART_COLORS.muted} isAnimationActive={false} />
        <Bar dataKey="open" name="Open rate" fill={CHART_COLORS.accent} isAnimationActive={false} />
        <Bar dataKey="click" name="Click rate" fill={CHART_COLORS.success} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
