import type { UserNotification } from "../../lib/api-types.ts";
import { formatTimestamp } from "../../lib/format-date.ts";

/** JSON bodies (SES through SNS, FCM) indented; form bodies (Twilio) one field per line. */
function readableBody(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw.includes("=") && !raw.includes(" ") ? raw.split("&").join("\n") : raw;
  }
}

/** The provider's webhooks about this message exactly as they arrived, before Herald read them. */
export function WebhookLog({ webhooks }: { webhooks: UserNotification["webhooks"] }) {
  if (webhooks.length === 0) return <p className="muted">No webhook has arrived for this message.</p>;
  return (
    <ol className="plain-list">
      {webhooks.map((webhook, index) => (
        <li key={`${webhook.receivedAt}-${index}`}>
          <p>
            <code className="code">{webhook.kind}</code> from {webhook.provider}, received{" "}
            <time dateTime={webhook.receivedAt}>{formatTimestamp(webhook.receivedAt)}</time>{" "}
            <span className="muted">({webhook.state})</span>
          </p>
          <pre className="code-block" tabIndex={0} aria-label={`Raw body of the ${webhook.kind} webhook`}>
            {readableBody(webhook.raw)}
          </pre>
        </li>
      ))}
    </ol>
  );
}
