import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import type { ProviderHealth } from "./delivery-types.ts";
import { formatShare } from "./format-age.ts";

const breakerLook: Record<string, { tone: BadgeTone; label: string }> = {
  closed: { tone: "success", label: "Closed" },
  half_open: { tone: "warning", label: "Half open" },
  open: { tone: "danger", label: "Open" },
};

/** Per provider: its token bucket, its breakers, and how its recent calls ended, by error code. */
export function ProviderHealthTable({ providers, windowMinutes }: { providers: ProviderHealth[]; windowMinutes: number }) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Provider health">
        <thead>
          <tr>
            <th scope="col">Provider</th>
            <th scope="col">Token bucket</th>
            <th scope="col">Circuit breaker</th>
            <th scope="col" className="cell-number">
              Calls ({windowMinutes} min)
            </th>
            <th scope="col">Errors by code</th>
          </tr>
        </thead>
        <tbody>
          {providers.map((p) => (
            <tr key={p.provider} data-provider={p.provider}>
              <td className="cell-strong">{p.provider}</td>
              <td>
                {p.bucket ? (
                  <div className="progress">
                    <div className="progress-head">
                      <span className="progress-detail">
                        {Math.floor(p.bucket.tokens)} of {p.bucket.burst} tokens · {p.bucket.ratePerSecond}/s
                      </span>
                    </div>
                    <div
                      className="progress-track"
                      role="progressbar"
                      aria-label={`${p.provider} tokens available`}
                      aria-valuemin={0}
                      aria-valuemax={p.bucket.burst}
                      aria-valuenow={Math.floor(p.bucket.tokens)}
                    >
                      <div className="progress-fill" style={{ width: `${Math.round((p.bucket.tokens / p.bucket.burst) * 100)}%` }} />
                    </div>
                  </div>
                ) : (
                  <span className="muted">Unpaced</span>
                )}
              </td>
              <td>
                {p.breakers.length === 0 ? (
                  <Badge tone="success">Closed</Badge>
                ) : (
                  <ul className="plain-list cell-list">
                    {p.breakers.map((b) => {
                      const look = breakerLook[b.state] ?? { tone: "neutral" as const, label: b.state };
                      return (
                        <li key={b.key}>
                          <Badge tone={look.tone} title={b.reason ?? undefined}>
                            {b.key === p.provider ? look.label : `${b.key.slice(p.provider.length + 1)}: ${look.label}`}
                          </Badge>
                          {b.state !== "closed" && b.openedAt && (
                            <span className="muted">
                              {" "}
                              since <RelativeTime iso={b.openedAt} />
                            </span>
                          )}
                        </li>
                      );
                    })}
                  </ul>
                )}
              </td>
              <td className="cell-number">{p.attempts.toLocaleString()}</td>
              <td>
                {p.errors.length === 0 ? (
                  <span className="muted">{p.attempts === 0 ? "—" : "None"}</span>
                ) : (
                  <ul className="plain-list cell-list">
                    {p.errors.map((e) => (
                      <li key={`${e.outcome}:${e.code}`}>
                        <code className="code">{e.code || "no code"}</code> {e.outcome} · {e.count.toLocaleString()} ({formatShare(e.rate)})
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
