import { classNames } from "../../lib/class-names.ts";

/** A labelled bar from 0 to 1; the detail says in numbers what the bar shows. */
export function ProgressBar({ label, value, detail, done = false }: { label: string; value: number; detail?: string; done?: boolean }) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div className={classNames("progress", done && "progress-done")}>
      <div className="progress-head">
        <span className="progress-label">{label}</span>
        <span className="progress-detail">{detail ?? `${percent}%`}</span>
      </div>
      <div className="progress-track" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
