import { Fragment, useId, useState } from "react";
import { ChannelBadge } from "../../components/ui/channel-badge.tsx";
import { ExpandButton } from "../../components/ui/expand-button.tsx";
import { NotificationStatusBadge } from "../../components/ui/notification-status-badge.tsx";
import { ReasonCell } from "../../components/ui/reason-cell.tsx";
import type { UserNotification } from "../../lib/api-types.ts";
import { channelLabel } from "../../lib/channels.ts";
import { formatDateTime, formatRelative } from "../../lib/format-date.ts";
import { dispatchStateLabel } from "./dispatch-states.ts";
import { NotificationDetails } from "./notification-details.tsx";

const columns = 7;

/** One user's notifications, newest first; each row opens onto its event log and content. */
export function UserHistoryTable({ notifications, canResend = false }: { notifications: UserNotification[]; canResend?: boolean }) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const detailsId = useId();

  function toggle(id: string) {
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }

  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col" className="cell-expand">
              <span className="visually-hidden">Details</span>
            </th>
            <th scope="col">Created</th>
            <th scope="col">Channel</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Reason</th>
            <th scope="col" className="cell-number">
              Attempts
            </th>
          </tr>
        </thead>
        <tbody>
          {notifications.map((notification) => {
            const isExpanded = expanded.has(notification.id);
            const rowDetailsId = `${detailsId}-${notification.id}`;
            return (
              <Fragment key={notification.id}>
                <tr className={isExpanded ? "row-expanded" : undefined}>
                  <td className="cell-expand">
                    <ExpandButton
                      expanded={isExpanded}
                      onToggle={() => toggle(notification.id)}
                      controls={rowDetailsId}
                      label={`Details of ${notification.type} by ${channelLabel(notification.channel)}`}
                    />
                  </td>
                  <td className="cell-nowrap">
                    <time dateTime={notification.createdAt}>{formatDateTime(notification.createdAt)}</time>
                    <span className="cell-sub">{formatRelative(notification.createdAt)}</span>
                  </td>
                  <td>
                    <ChannelBadge channel={notification.channel} />
                  </td>
                  <td className="cell-nowrap">
                    <code className="code">{notification.type}</code>
                  </td>
                  <td className="cell-nowrap">
                    <NotificationStatusBadge status={notification.status} />
                    {/* While pending, the dispatch state is the interesting part: queued, retrying, deferred… */}
                    {notification.status === "pending" && (
                      <span className="cell-sub">{dispatchStateLabel(notification.dispatchState)}</span>
                    )}
                  </td>
                  <ReasonCell reason={notification.reason} />
                  <td className="cell-number">{notification.attempts}</td>
                </tr>
                {isExpanded && (
                  <tr className="row-details" id={rowDetailsId}>
                    <td colSpan={columns}>
                      <NotificationDetails notification={notification} canResend={canResend} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
