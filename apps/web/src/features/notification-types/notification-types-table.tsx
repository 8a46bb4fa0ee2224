import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Badge } from "../../components/ui/badge.tsx";
import { Card } from "../../components/ui/card.tsx";
import { ChannelBadge } from "../../components/ui/channel-badge.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { DeleteTypeButton } from "./delete-type-button.tsx";

/** Every notification type with its steps; admins edit and delete from here. */
export function NotificationTypesTable({ canManage }: { canManage: boolean }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.notificationTypes.list.queryOptions());
  const newButton = canManage ? (
    <Link className="btn btn-primary" to="/settings/notification-types/new">
      New notification type
    </Link>
  ) : null;

  return (
    <Card title="Notification types" description="How each event type your backend posts becomes notifications: per channel, a category, a lane and the content." actions={newButton} flush>
      {list.isPending ? (
        <TableSkeleton columns={4} rows={4} label="Loading notification types" />
      ) : list.isError ? (
        <ErrorState error={list.error} title="Could not load notification types" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : list.data.notificationTypes.length === 0 ? (
        <EmptyState title="No notification types yet" action={newButton}>
          Events are refused as unknown until their type is defined here or with PUT /api/v1/notification-types/:type.
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Event type</th>
                <th scope="col">Steps</th>
                <th scope="col">Changed</th>
                {canManage && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.data.notificationTypes.map((type) => (
                <tr key={type.type}>
                  <td className="cell-strong">
                    {canManage ? (
                      <Link to={`/settings/notification-types/${encodeURIComponent(type.type)}`}>
                        <code className="code">{type.type}</code>
                      </Link>
                    ) : (
                      <code className="code">{type.type}</code>
                    )}
                  </td>
                  <td>
                    <div className="type-steps-cell">
                      {type.channels.map((step) => (
                        <div key={step.channel}>
                          <ChannelBadge channel={step.channel} /> {step.template ? <>template <code className="code">{step.template}</code></> : "inline content"} · {step.category}
                          {step.lane === "critical" && (
                            <>
                              {" "}
                              <Badge tone="warning">Critical</Badge>
                            </>
                          )}
                        </div>
                      ))}
                    </div>
                  </td>
                  <td className="cell-nowrap">
                    <RelativeTime iso={type.updatedAt} />
                  </td>
                  {canManage && (
                    <td className="cell-actions">
                      <DeleteTypeButton type={type.type} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
