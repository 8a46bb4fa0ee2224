import { MAX_PUSH_PAYLOAD_BYTES, type RenderedPush } from "@herald/core/browser";

const kib = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/**
 * A rendered push notification as a lock screen shows it. The image is named rather than shown:
 * the dashboard loads nothing from hosts it does not control.
 */
export function PushPreview({ push }: { push: RenderedPush }) {
  const entries = Object.entries(push.data);
  return (
    <div className="template-push-preview">
      <div className="template-push-card">
        <span className="template-push-icon" aria-hidden="true" />
        <div className="template-push-text">
          <p className="template-push-title">{push.title}</p>
          <p className="template-push-body">{push.body}</p>
        </div>
      </div>
      <dl className="provider-facts">
        <div>
          <dt>Image</dt>
          <dd>{push.imageUrl ? <code className="code">{push.imageUrl}</code> : <span className="muted">None</span>}</dd>
        </div>
        <div>
          <dt>Deep link</dt>
          <dd>{push.deepLink ? <code className="code">{push.deepLink}</code> : <span className="muted">None</span>}</dd>
        </div>
        <div>
          <dt>Data</dt>
          <dd>
            {entries.length === 0 ? (
              <span className="muted">None</span>
            ) : (
              entries.map(([key, value]) => (
                <span key={key} className="template-push-data">
                  <code className="code">{key}</code> {value}
                </span>
              ))
            )}
          </dd>
        </div>
        <div>
          <dt>Payload</dt>
          <dd className={push.payloadBytes > MAX_PUSH_PAYLOAD_BYTES ? "field-error" : undefined}>
            {`${kib.format(push.payloadBytes / 1024)} KiB of ${MAX_PUSH_PAYLOAD_BYTES / 1024} KiB`}
          </dd>
        </div>
      </dl>
    </div>
  );
}
