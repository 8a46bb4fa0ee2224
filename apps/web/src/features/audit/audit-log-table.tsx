import type { AuditEntry } from "../../lib/api-types.ts";
import { formatDateTime } from "../../lib/format-date.ts";
import { formatDetail } from "./format-detail.ts";

export function AuditLogTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => {
            const detail = formatDetail(entry.detail);
            return (
              <tr key={entry.id}>
                <td className="cell-nowrap">
                  <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                </td>
                <td>{entry.actor}</td>
                <td>
                  <code className="code">{entry.action}</code>
                </td>
                <td>{entry.target ?? <span className="muted">—</span>}</td>
                <td className="cell-detail">
                  {detail ? (
                    <code className="code code-clamp" title={detail}>
                      {detail}
                    </code>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
