import { JsonBlock } from "../../components/ui/json-block.tsx";
import type { NotificationEvent } from "../../lib/api-types.ts";
import { formatTimestamp } from "../../lib/format-date.ts";

// Short details read best inline; longer ones are indented so they can be read at all.
const inlineDetailLength = 120;

/** A notification's log, oldest first: every step the engine and the provider took. */
export function NotificationEventLog({ events }: { events: NotificationEvent[] }) {
  if (events.length === 0) return <p className="muted">No events logged yet.</p>;
  return (
    <table className="table table-compact">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Event</th>
          <th scope="col">Detail</th>
        </tr>
      </thead>
      <tbody>
        {events.map((event, index) => {
          const empty = event.detail === null || Object.keys(event.detail).length === 0;
          const inline = empty ? "" : spacedJson(event.detail);
          return (
            <tr key={`${event.at}-${index}`}>
              <td className="cell-nowrap">
                <time dateTime={event.at}>{formatTimestamp(event.at)}</time>
              </td>
              <td>
                <code className="code">{event.type}</code>
              </td>
              <td className="cell-detail-wide">
                {empty ? (
                  <span className="muted">—</span>
                ) : inline.length <= inlineDetailLength ? (
                  <code className="code code-wrap">{inline}</code>
                ) : (
                  <JsonBlock value={event.detail} label={`Detail of ${event.type}`} />
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** `{ "a": 1, "b": "x" }`: one line, with spaces the browser may wrap at, unlike compact JSON. */
function spacedJson(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(/\n\s*/g, " ");
}
