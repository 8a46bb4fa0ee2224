import { formatRate } from "@herald/core/browser";
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Column } from "./analytics-csv.ts";
import type { SeriesPoint } from "./analytics-types.ts";
import { CHART_COLORS, percent } from "./chart-colors.ts";
import { formatNumber } from "./format-number.ts";

type RateKey = keyof SeriesPoint["rates"];

export interface RateLine {
  rate: RateKey;
  label: string;
  color: string;
}

/** One line per rate over the buckets, in percent; a bucket with no denominator is a gap, not a zero. */
export function RateSeriesChart({
  points,
  lines,
  threshold,
}: {
  points: readonly SeriesPoint[];
  lines: readonly RateLine[];
  /** A provider's limit, drawn across the chart (as a share, 0.05 for 5 %). */
  threshold?: { value: number; label: string };
}) {
  const data = points.map((p) => ({ bucket: p.bucket, ...Object.fromEntries(lines.map((l) => [l.rate, percent(p.rates[l.rate])])) }));
  const top = threshold ? threshold.value * 100 * 1.6 : 100;
  return (
    <ResponsiveContainer width="100%" height={260}>
      <LineChart data={data} margin={{ top: 16, right: 24, bottom: 0, left: 8 }}>
        <CartesianGrid stroke={CHART_COLORS.grid} vertical={false} />
        <XAxis dataKey="bucket" tickLine={false} minTickGap={24} />
        <YAxis
          unit=" %"
          width={64}
          domain={threshold ? [0, (max: number) => Math.max(max, top)] : [0, 100]}
          tickFormatter={(v: number) => String(Math.round(v * 100) / 100)}
        />
        <Tooltip formatter={(v) => (v === null || v === undefined ? "—" : `${v} %`)} />
        <Legend />
        {threshold && (
          <ReferenceLine y={threshold.value * 100} stroke={CHART_COLORS.danger} strokeDasharray="6 4" label={{ value: threshold.label, position: "insideTopRight", fill: CHART_COLORS.danger, fontSize: 12 }} />
        )}
        {lines.map((l) => (
          <Line key={l.rate} type="linear" dataKey={l.rate} name={l.label} stroke={l.color} strokeWidth={2} dot={points.length <= 31} connectNulls={false} isAnimationActive={false} />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}

/** The table columns of a rate chart: the bucket, the counts each rate divides, then the rates. */
export function seriesColumns(bucketHeading: string, counts: ReadonlyArray<{ key: keyof SeriesPoint["counters"]; heading: string }>, lines: readonly RateLine[]): Column<SeriesPoint>[] {
  return [
    { heading: bucketHeading, value: (p) => p.bucket },
    ...counts.map((c) => ({ heading: c.heading, value: (p: SeriesPoint) => formatNumber(p.counters[c.key]), numeric: true })),
    ...lines.map((l) => ({ heading: l.label, value: (p: SeriesPoint) => formatRate(p.rates[l.rate], l.rate === "complaintRate" ? 2 : 1), numeric: true })),
  ];
}
