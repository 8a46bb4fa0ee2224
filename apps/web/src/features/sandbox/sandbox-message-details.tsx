import { JsonBlock } from "../../components/ui/json-block.tsx";
import type { SandboxMessage } from "../../lib/api-types.ts";
import { formatDateTime } from "../../lib/format-date.ts";

/** Everything the sandbox recorded about one message, as a real provider would have received it. */
export function SandboxMessageDetails({ message }: { message: SandboxMessage }) {
  const headers = message.headers ? Object.entries(message.headers) : [];
  return (
    <div className="details">
      <dl className="meta-list">
        <div>
          <dt>To</dt>
          <dd className="cell-break">{message.recipient}</dd>
        </div>
        <div>
          <dt>Sent</dt>
          <dd>{formatDateTime(message.createdAt)}</dd>
        </div>
        <div>
          <dt>Notification</dt>
          <dd>
            <code className="code">{message.notificationId}</code>
          </dd>
        </div>
        <div>
          <dt>Provider message id</dt>
          <dd>
            <code className="code">{message.providerMessageId}</code>
          </dd>
        </div>
      </dl>
      {(message.subject || message.title) && (
        <section className="details-section">
          <h3 className="details-title">{message.subject ? "Subject" : "Title"}</h3>
          <p>{message.subject ?? message.title}</p>
        </section>
      )}
      <section className="details-section">
        <h3 className="details-title">Body</h3>
        <pre className="code-block code-block-text">{message.body}</pre>
      </section>
      <div className="details-columns">
        <section className="details-section">
          <h3 className="details-title">Headers</h3>
          {headers.length === 0 ? (
            <p className="muted">None</p>
          ) : (
            <dl className="header-list">
              {headers.map(([name, value]) => (
                <div key={name}>
                  <dt>{name}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
        <section className="details-section">
          <h3 className="details-title">Data</h3>
          {message.data && Object.keys(message.data).length > 0 ? (
            <JsonBlock value={message.data} label="Data" />
          ) : (
            <p className="muted">None</p>
          )}
        </section>
      </div>
    </div>
  );
}
