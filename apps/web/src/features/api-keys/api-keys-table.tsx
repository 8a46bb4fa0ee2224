import { Badge } from "../../components/ui/badge.tsx";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import type { ApiKey } from "../../lib/api-types.ts";
import { formatDateTime } from "../../lib/format-date.ts";
import { ApiKeyScopeBadge } from "./api-key-scope-badge.tsx";
import { RevokeApiKeyButton } from "./revoke-api-key-button.tsx";

const count = new Intl.NumberFormat();

export function ApiKeysTable({ keys }: { keys: ApiKey[] }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Scope</th>
            <th scope="col">Rate limit</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id} className={key.revokedAt ? "row-inactive" : undefined}>
              <td className="cell-strong">{key.name}</td>
              <td className="cell-nowrap">
                <code className="code">{key.prefix}…</code>
              </td>
              <td>
                <ApiKeyScopeBadge scope={key.scope} />
              </td>
              <td className="cell-nowrap">
                {key.ratePerMinute ? `${count.format(key.ratePerMinute)} / min` : <span className="muted">No limit</span>}
              </td>
              <td className="cell-nowrap">
                <RelativeTime iso={key.createdAt} />
              </td>
              <td className="cell-nowrap">
                {key.lastUsedAt ? <RelativeTime iso={key.lastUsedAt} /> : <span className="muted">Never</span>}
              </td>
              <td>
                {key.revokedAt ? (
                  <Badge tone="danger" title={`Revoked ${formatDateTime(key.revokedAt)}`}>
                    Revoked
                  </Badge>
                ) : (
                  <Badge tone="success">Active</Badge>
                )}
              </td>
              <td className="cell-actions">{!key.revokedAt && <RevokeApiKeyButton apiKey={key} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
