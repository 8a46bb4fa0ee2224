import { useState, type ReactNode } from "react";
import { classNames } from "../../lib/class-names.ts";
import { formatCount, formatPercent } from "./format-count.ts";

export type BarTone = "accent" | "success" | "warning" | "danger" | "neutral";
export type Bar = { key: string; label: ReactNode; value: number; tone?: BarTone; note?: ReactNode };

/**
 * Horizontal bars with a Chart / Table switch. Bars are scaled to `total` (or the largest value),
 * and every bar also says its number and share in text, so the chart reads without the colours.
 */
export function BarChart({
  label,
  bars,
  total,
  valueHeading = "Users",
  empty = "Nothing to show yet.",
}: {
  /** Names the chart and its table: "Who gets it". */
  label: string;
  bars: Bar[];
  /** What shares are out of; the largest bar when absent. */
  total?: number;
  valueHeading?: string;
  empty?: string;
}) {
  const [view, setView] = useState<"chart" | "table">("chart");
  const scale = Math.max(total ?? 0, ...bars.map((bar) => bar.value), 1);
  const share = (value: number) => (total ? formatPercent(value / total) : null);

  return (
    <div className="chart">
      <div className="chart-switch" role="group" aria-label={`Show ${label.toLowerCase()} as`}>
        <button type="button" className={classNames("chart-switch-button", view === "chart" && "active")} aria-pressed={view === "chart"} onClick={() => setView("chart")}>
          Chart
        </button>
        <button type="button" className={classNames("chart-switch-button", view === "table" && "active")} aria-pressed={view === "table"} onClick={() => setView("table")}>
          Table
        </button>
      </div>
      {bars.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : view === "chart" ? (
        <ul className="chart-bars" aria-label={label}>
          {bars.map((bar) => (
            <li key={bar.key} className="chart-bar">
              <span className="chart-bar-label">
                {bar.label}
                {bar.note && <span className="chart-bar-note">{bar.note}</span>}
              </span>
              <span className="chart-bar-track" aria-hidden="true">
                <span
                  className={classNames("chart-bar-fill", `chart-tone-${bar.tone ?? "accent"}`, bar.value === 0 && "chart-bar-empty")}
                  style={{ width: `${(bar.value / scale) * 100}%` }}
                />
              </span>
              <span className="chart-bar-value">
                {formatCount(bar.value)}
                {share(bar.value) && <span className="chart-bar-share">{share(bar.value)}</span>}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <div className="table-wrap">
          <table className="table table-compact" aria-label={label}>
            <thead>
              <tr>
                <th scope="col">{label}</th>
                <th scope="col" className="cell-number">
                  {valueHeading}
                </th>
                {total ? (
                  <th scope="col" className="cell-number">
                    Share
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {bars.map((bar) => (
                <tr key={bar.key}>
                  <th scope="row" className="broadcast-row-heading">
                    {bar.label}
                    {bar.note && <span className="cell-sub">{bar.note}</span>}
                  </th>
                  <td className="cell-number">{formatCount(bar.value)}</td>
                  {total ? <td className="cell-number">{share(bar.value)}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
