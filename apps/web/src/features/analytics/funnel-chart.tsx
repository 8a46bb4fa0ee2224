import { formatRate } from "@herald/core/browser";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { channelLabel } from "../../lib/channels.ts";
import type { Column } from "./analytics-csv.ts";
import type { FunnelAnswer } from "./analytics-types.ts";
import { CHANNEL_COLORS, CHART_COLORS } from "./chart-colors.ts";
import { formatNumber } from "./format-number.ts";

type FunnelRow = FunnelAnswer["channels"][number] & { label: string };

const STAGES = [
  { key: "sent", label: "Sent" },
  { key: "delivered", label: "Delivered" },
  { key: "opened", label: "Opened" },
  { key: "clicked", label: "Clicked" },
] as const;

/** Per channel, then all channels: the table view and the CSV of the funnel. */
export function funnelRows(answer: FunnelAnswer): FunnelRow[] {
  return [...answer.channels.map((c) => ({ ...c, label: channelLabel(c.channel) })), { channel: "all", label: "All channels", ...answer.total }];
}

export const FUNNEL_COLUMNS: Column<FunnelRow>[] = [
  { heading: "Channel", value: (r) => r.label },
  ...STAGES.map((s) => ({ heading: s.label, value: (r: FunnelRow) => formatNumber(r.counters[s.key]), numeric: true })),
  { heading: "Delivery rate", value: (r) => formatRate(r.rates.deliveryRate), numeric: true },
  { heading: "Open rate", value: (r) => formatRate(r.rates.openRate), numeric: true },
  { heading: "Click rate", value: (r) => formatRate(r.rates.clickRate), numeric: true },
  { heading: "Opened by privacy proxies", value: (r) => formatNumber(r.counters.opened_by_proxy), numeric: true },
];

/** Sent → delivered → opened → clicked, one bar per channel at each stage. */
export function FunnelChart({ answer }: { answer: FunnelAnswer }) {
  const data = STAGES.map((s) => ({ stage: s.label, ...Object.fromEntries(answer.channels.map((c) => [c.channel, c.counters[s.key]])) }));
  return (
    <ResponsiveContainer width="100%" height={280}>
      <BarChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
        <CartesianGrid stroke={CHART_COLORS.grid} vertical={false} />
        <XAxis dataKey="stage" tickLine={false} />
        <YAxis allowDecimals={false} tickFormatter={(v: number) => formatNumber(v)} width={64} />
        <Tooltip formatter={(v) => formatNumber(Number(v))} />
        <Legend />
        {answer.channels.map((c) => (
          <Bar key={c.channel} dataKey={c.channel} name={channelLabel(c.channel)} fill={CHANNEL_COLORS[c.channel] ?? CHART_COLORS.muted} isAnimationActive={false} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
