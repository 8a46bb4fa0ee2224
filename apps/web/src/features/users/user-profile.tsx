import { Badge } from "../../components/ui/badge.tsx";
import { Card } from "../../components/ui/card.tsx";
import type { UserDetails } from "../../lib/api-types.ts";
import { formatDateTime } from "../../lib/format-date.ts";

function Value({ value }: { value: string | null | undefined }) {
  return value ? <code className="code">{value}</code> : <span className="muted">—</span>;
}

/** Who the user is to Herald: identifiers, locale, time zone and every attribute the backend sent. */
export function UserProfile({ details, defaultTimezone }: { details: UserDetails; defaultTimezone?: string }) {
  const { user } = details;
  const attributes = Object.entries(user.attributes as Record<string, unknown>);
  return (
    <Card title="Profile" description={`First seen ${formatDateTime(user.createdAt)}, last updated ${formatDateTime(user.updatedAt)}.`}>
      <dl className="meta-list">
        <div>
          <dt>User id</dt>
          <dd>
            <Value value={user.externalId} />
          </dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>
            <Value value={user.email} />
          </dd>
        </div>
        <div>
          <dt>Phone</dt>
          <dd>
            <Value value={user.phone} />
          </dd>
        </div>
        <div>
          <dt>Time zone</dt>
          <dd>
            {user.timezone ? <Value value={user.timezone} /> : <span className="muted">not set{defaultTimezone ? `: ${defaultTimezone} applies` : ""}</span>}
          </dd>
        </div>
        <div>
          <dt>Locale</dt>
          <dd>
            <Value value={user.locale} />
          </dd>
        </div>
      </dl>
      <h3 className="details-title">Attributes</h3>
      {attributes.length === 0 ? (
        <p className="muted">No attributes.</p>
      ) : (
        <table className="table table-compact">
          <tbody>
            {attributes.map(([key, value]) => (
              <tr key={key}>
                <td>
                  <code className="code">{key}</code>
                </td>
                <td className="cell-break">
                  <code className="code">{JSON.stringify(value)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

/** Push tokens, active first; a deactivated one keeps the reason and date it stopped working. */
export function UserDevices({ devices }: { devices: UserDetails["devices"] }) {
  return (
    <Card title="Devices" description="Push tokens. Invalid ones are deactivated, never deleted." flush>
      {devices.length === 0 ? (
        <p className="card-notice muted">No device has been registered: push cannot reach this user.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Token</th>
                <th scope="col">Platform</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {devices.map((device) => (
                <tr key={device.token}>
                  <td className="cell-truncate" title={device.token}>
                    <code className="code">{device.token}</code>
                    <span className="cell-sub">registered {formatDateTime(device.createdAt)}</span>
                  </td>
                  <td>{device.platform}</td>
                  <td>
                    {device.active ? (
                      <Badge tone="success">Active</Badge>
                    ) : (
                      <>
                        <Badge tone="neutral">Deactivated</Badge>
                        <span className="cell-sub">
                          {device.deactivatedReason ?? "no reason recorded"}
                          {device.deactivatedAt ? ` · ${formatDateTime(device.deactivatedAt)}` : ""}
                        </span>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

/** The quiet windows: notifications that arrive inside one wait for its end (the critical lane does not). */
export function UserQuietHours({ windows, timezone }: { windows: UserDetails["quietHours"]; timezone: string | null }) {
  return (
    <Card title="Quiet hours" description="Bulk notifications that fall inside a window are deferred to its end.">
      {windows.length === 0 ? (
        <p className="muted">No quiet hours: notifications go out at any time.</p>
      ) : (
        <ul className="plain-list">
          {windows.map((w) => (
            <li key={`${w.category}/${w.channel}`}>
              <strong>
                {w.start}–{w.end}
              </strong>{" "}
              {w.timezone ?? timezone ?? "in the workspace's time zone"}{" "}
              <span className="muted">
                {w.category === "*" && w.channel === "*" ? "every category and channel" : `${w.category === "*" ? "every category" : w.category} on ${w.channel === "*" ? "every channel" : w.channel}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
