import { addDays } from "@herald/core/browser";
import { channelLabel, channels } from "../../lib/channels.ts";
import type { AnalyticsFilter, AnalyticsOverview, Granularity } from "./analytics-types.ts";

const RANGES = [7, 30, 90] as const;

/** The last `days` days up to and including today (in the rollup's time zone). */
export function lastDays(today: string, days: number): Pick<AnalyticsFilter, "from" | "to"> {
  return { from: addDays(today, -(days - 1)), to: today };
}

/** Date range, dimensions and granularity: every chart on the page answers for this filter. */
export function AnalyticsFilters({
  overview,
  filter,
  onFilter,
  granularity,
  onGranularity,
}: {
  overview: AnalyticsOverview;
  filter: AnalyticsFilter;
  onFilter: (filter: AnalyticsFilter) => void;
  granularity: Granularity;
  onGranularity: (g: Granularity) => void;
}) {
  const set = (patch: Partial<AnalyticsFilter>) => onFilter({ ...filter, ...patch });
  const template = filter.templateKey ? `${filter.templateKey}@${filter.templateVersion}` : "";
  return (
    <div className="analytics-filters" role="search" aria-label="Analytics filters">
      <div className="analytics-ranges" role="group" aria-label="Date range">
        {RANGES.map((days) => {
          const range = lastDays(overview.today, days);
          const active = range.from === filter.from && range.to === filter.to;
          return (
            <button key={days} type="button" className={active ? "analytics-switch-button active" : "analytics-switch-button"} aria-pressed={active} onClick={() => set(range)}>
              {`Last ${days} days`}
            </button>
          );
        })}
      </div>
      <label className="analytics-filter">
        <span>From</span>
        <input type="date" className="input" value={filter.from} max={filter.to} onChange={(e) => e.target.value && set({ from: e.target.value })} />
      </label>
      <label className="analytics-filter">
        <span>To</span>
        <input type="date" className="input" value={filter.to} min={filter.from} onChange={(e) => e.target.value && set({ to: e.target.value })} />
      </label>
      <label className="analytics-filter">
        <span>Channel</span>
        <select className="input" value={filter.channel ?? ""} onChange={(e) => set({ channel: (e.target.value || null) as AnalyticsFilter["channel"] })}>
          <option value="">All channels</option>
          {channels.map((c) => (
            <option key={c} value={c}>
              {channelLabel(c)}
            </option>
          ))}
        </select>
      </label>
      <label className="analytics-filter">
        <span>Notification type</span>
        <select className="input" value={filter.type ?? ""} onChange={(e) => set({ type: e.target.value || null })}>
          <option value="">All types</option>
          {overview.types.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label className="analytics-filter">
        <span>Broadcast</span>
        <select className="input" value={filter.broadcastId ?? ""} onChange={(e) => set({ broadcastId: e.target.value || null })}>
          <option value="">Any</option>
          {overview.broadcasts.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </select>
      </label>
      <label className="analytics-filter">
        <span>Template version</span>
        <select
          className="input"
          value={template}
          onChange={(e) => {
            const picked = overview.templates.find((t) => `${t.key}@${t.version}` === e.target.value);
            set({ templateKey: picked?.key ?? null, templateVersion: picked?.version ?? null });
          }}
        >
          <option value="">Any</option>
          {overview.templates.map((t) => (
            <option key={`${t.key}@${t.version}`} value={`${t.key}@${t.version}`}>
              {`${t.key} v${t.version}`}
            </option>
          ))}
        </select>
      </label>
      <div className="analytics-ranges" role="group" aria-label="Granularity">
        {(["day", "week"] as const).map((g) => (
          <button key={g} type="button" className={granularity === g ? "analytics-switch-button active" : "analytics-switch-button"} aria-pressed={granularity === g} onClick={() => onGranularity(g)}>
            {g === "day" ? "By day" : "By week"}
          </button>
        ))}
      </div>
    </div>
  );
}
