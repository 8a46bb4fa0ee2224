/** SVG attributes take no CSS variables: the palette of styles.css, spelled out. */
export const CHART_COLORS = {
  accent: "#4f46e5",
  success: "#059669",
  warning: "#d97706",
  danger: "#dc2626",
  muted: "#6b7280",
  grid: "#e5e7eb",
} as const;

export const CHANNEL_COLORS: Record<string, string> = { email: "#4f46e5", push: "#059669", sms: "#d97706" };

/** A rate (0..1 or null) as a percentage for a chart's axis; null stays a gap in the line. */
export function percent(value: number | null): number | null {
  return value === null ? null : Math.round(value * 100_000) / 1000;
}
