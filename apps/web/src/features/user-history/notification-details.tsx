import type { UserNotification } from "../../lib/api-types.ts";
import { formatTimestamp } from "../../lib/format-date.ts";
import { dispatchStateLabel, dispatchStateMeaning } from "./dispatch-states.ts";
import { NotificationEventLog } from "./notification-event-log.tsx";
import { RenderedContent } from "./rendered-content.tsx";
import { ResendButton } from "./resend-button.tsx";
import { WebhookLog } from "./webhook-log.tsx";

/** Everything support needs to answer "did they get it, and if not, why": the log and what was sent where. */
export function NotificationDetails({ notification, canResend = false }: { notification: UserNotification; canResend?: boolean }) {
  const meta: Array<[string, string | undefined]> = [
    ["Notification", notification.id],
    ["Event", notification.eventId ?? undefined],
    ["Category", notification.category],
    ["Lane", notification.lane],
    ["Provider", notification.provider],
    ["Provider message id", notification.providerMessageId],
    ["Resend of", notification.resentFromId ?? undefined],
    ["Resent as", notification.resentAs.length > 0 ? notification.resentAs.join(", ") : undefined],
  ];
  return (
    <div className="details">
      {canResend && (
        <div className="details-actions">
          <ResendButton notification={notification} />
        </div>
      )}
      <dl className="meta-list">
        {meta.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value ? <code className="code">{value}</code> : <span className="muted">—</span>}</dd>
          </div>
        ))}
        <div>
          <dt>Dispatch</dt>
          <dd title={dispatchStateMeaning(notification.dispatchState) ?? undefined}>
            {dispatchStateLabel(notification.dispatchState)}
            {notification.nextAttemptAt && notification.dispatchState !== "in_flight" && (
              <span className="muted"> · next attempt {formatTimestamp(notification.nextAttemptAt)}</span>
            )}
          </dd>
        </div>
      </dl>
      <section className="details-section">
        <h3 className="details-title">Event log</h3>
        <NotificationEventLog events={notification.events} />
      </section>
      <section className="details-section">
        <h3 className="details-title">Provider webhooks (raw)</h3>
        <WebhookLog webhooks={notification.webhooks} />
      </section>
      <section className="details-section">
        <h3 className="details-title">Sent to</h3>
        {notification.address ? (
          <p className="cell-break">
            <code className="code">{notification.address}</code>
          </p>
        ) : (
          <p className="muted">No address was resolved: it never reached a send attempt.</p>
        )}
      </section>
      <section className="details-section">
        <h3 className="details-title">Rendered content</h3>
        <RenderedContent rendered={notification.rendered} />
      </section>
    </div>
  );
}
