import { Link } from "react-router";
import { JsonBlock } from "../../components/ui/json-block.tsx";
import type { DeadLetter } from "../../lib/api-types.ts";
import { formatDateTime } from "../../lib/format-date.ts";

/** What a replay would send again, and why the last attempt failed. */
export function DeadLetterDetails({ deadLetter }: { deadLetter: DeadLetter }) {
  const { userId } = deadLetter;
  return (
    <div className="details">
      <dl className="meta-list">
        <div>
          <dt>Notification</dt>
          <dd>
            <code className="code">{deadLetter.id}</code>
          </dd>
        </div>
        <div>
          <dt>User</dt>
          <dd>
            {userId ? <Link to={{ pathname: "/users", search: `?user=${encodeURIComponent(userId)}` }}>{userId}’s history</Link> : "—"}
          </dd>
        </div>
        <div>
          <dt>Category</dt>
          <dd>{deadLetter.category}</dd>
        </div>
        <div>
          <dt>Provider</dt>
          <dd>{deadLetter.provider ?? "—"}</dd>
        </div>
        <div>
          <dt>Attempts</dt>
          <dd>{deadLetter.attempts}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(deadLetter.createdAt)}</dd>
        </div>
        <div>
          <dt>Died</dt>
          <dd>{formatDateTime(deadLetter.deadAt)}</dd>
        </div>
      </dl>
      <section className="details-section">
        <h3 className="details-title">Last error</h3>
        {deadLetter.lastError ? (
          <pre className="code-block code-block-error">{deadLetter.lastError}</pre>
        ) : (
          <p className="muted">No error was recorded: it died at a gate, not at a provider.</p>
        )}
      </section>
      <div className="details-columns">
        <section className="details-section">
          <h3 className="details-title">Variables</h3>
          <JsonBlock value={deadLetter.vars} label="Variables" />
        </section>
        <section className="details-section">
          <h3 className="details-title">Content</h3>
          <JsonBlock value={deadLetter.content} label="Content" />
        </section>
      </div>
    </div>
  );
}
