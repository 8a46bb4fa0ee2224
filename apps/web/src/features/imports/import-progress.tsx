import { Alert } from "../../components/ui/alert.tsx";
import { Card } from "../../components/ui/card.tsx";
import { formatCount } from "./format-count.ts";
import type { ImportDetail } from "./import-types.ts";
import { ProgressBar } from "./progress-bar.tsx";

const COUNT_LABELS = {
  users: { created: "New users", updated: "Users updated" },
  suppressions: { created: "Newly suppressed", updated: "Already suppressed" },
  opt_outs: { created: "New opt-outs", updated: "Switched off" },
  devices: { created: "New devices", updated: "Re-registered" },
  activities: { created: "Activities recorded", updated: "Already recorded" },
} as const;

/** How far a started import is, and what it did so far. */
export function ImportProgress({ detail }: { detail: ImportDetail }) {
  const labels = COUNT_LABELS[detail.kind ?? "users"];
  const done = detail.status === "done";
  const value = detail.totalRows === 0 ? 1 : detail.processedRows / detail.totalRows;
  return (
    <Card title={done ? "Import finished" : detail.status === "failed" ? "Import stopped" : "Importing"}>
      <div className="stack">
        <ProgressBar
          label={detail.status === "queued" ? "Waiting for a worker" : done ? "Done" : "Rows processed"}
          value={value}
          done={done}
          detail={`${formatCount(detail.processedRows)} of ${formatCount(detail.totalRows)} rows`}
        />
        <dl className="import-counts">
          <div className="import-count">
            <dt>Imported</dt>
            <dd>{formatCount(detail.importedRows)}</dd>
          </div>
          <div className="import-count">
            <dt>Refused</dt>
            <dd>{formatCount(detail.failedRows)}</dd>
          </div>
          <div className="import-count">
            <dt>{labels.created}</dt>
            <dd>{formatCount(detail.createdCount)}</dd>
          </div>
          <div className="import-count">
            <dt>{labels.updated}</dt>
            <dd>{formatCount(detail.updatedCount)}</dd>
          </div>
        </dl>
        {detail.status === "failed" && (
          <Alert tone="error" title="The import stopped">
            {detail.failure ?? "See the server log."} Rows processed before it stopped stay imported.
          </Alert>
        )}
        {done && (
          <Alert tone={detail.failedRows > 0 ? "warning" : "success"}>
            {formatCount(detail.importedRows)} row{detail.importedRows === 1 ? "" : "s"} imported
            {detail.failedRows > 0 ? `, ${formatCount(detail.failedRows)} refused: see why below.` : ", none refused."}
          </Alert>
        )}
      </div>
    </Card>
  );
}
