import { classNames } from "../../lib/class-names.ts";

/** A labelled bar from 0 to 1; the detail says in numbers what the bar shows. */
export function ProgressBar({
  label,
  value,
  detail,
  done = false,
  compact = false,
}: {
  label: string;
  value: number;
  detail?: string;
  done?: boolean;
  /** For a table cell: the label is only for assistive technology. */
  compact?: boolean;
}) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div className={classNames("broadcast-progress", done && "broadcast-progress-done", compact && "broadcast-progress-compact")}>
      <div className="broadcast-progress-head">
        <span className={compact ? "visually-hidden" : "broadcast-progress-label"}>{label}</span>
        <span className="broadcast-progress-detail">{detail ?? `${percent}%`}</span>
      </div>
      <div className="broadcast-progress-track" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <div className="broadcast-progress-fill" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
