import { useInfiniteQuery, type InfiniteData } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import type { UserNotification } from "../../lib/api-types.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useManualRefresh } from "../../lib/use-manual-refresh.ts";
import { emptyTimelineFilter, isFiltered, timelineQueryInput, TimelineFilters, type TimelineFilter } from "./timeline-filters.tsx";
import { UserHistoryTable } from "./user-history-table.tsx";

const pageSize = 25;
const refreshMs = 5_000;
// How long after a send a provider callback (delivered, bounced) may still change the status.
const callbackWindowMs = 10 * 60_000;

/**
 * One user's notification timeline, newest first, following notifications still in motion. The
 * next page loads as the end of the list scrolls into view (or with "Load more").
 */
export function UserHistory({ userId, types = [], canResend = false }: { userId: string; types?: string[]; canResend?: boolean }) {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<TimelineFilter>(emptyTimelineFilter);
  const rangeInvalid = filter.fromDay !== "" && filter.toDay !== "" && filter.toDay < filter.fromDay;
  const history = useInfiniteQuery(
    trpc.notifications.userHistory.infiniteQueryOptions(
      { userId, limit: pageSize, ...timelineQueryInput(rangeInvalid ? { ...filter, toDay: "" } : filter) },
      {
        getNextPageParam: (page) => page.nextCursor,
        // Only while something can still change: otherwise a support tab left open polls forever.
        refetchInterval: (query) => (isInMotion(query.state.data, Date.now()) ? refreshMs : false),
      },
    ),
  );
  const { refresh, refreshing } = useManualRefresh(history.refetch);
  const notifications = history.data?.pages.flatMap((page) => page.items) ?? [];
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = history;
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage || isFetchingNextPage || isFetchNextPageError) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  return (
    <Card
      title={`Notifications to ${userId}`}
      description="Newest first. Open a row for its event log and the content that was sent."
      actions={
        <Button size="sm" onClick={refresh} pending={refreshing}>
          Refresh
        </Button>
      }
      flush
    >
      <TimelineFilters filter={filter} types={types} onChange={setFilter} />
      {history.isPending ? (
        <TableSkeleton columns={6} rows={5} label={`Loading the history of ${userId}`} />
      ) : history.isError && notifications.length === 0 ? (
        <ErrorState
          error={history.error}
          title="Could not load this user's history"
          onRetry={() => history.refetch()}
          retrying={history.isFetching}
        />
      ) : notifications.length === 0 && isFiltered(filter) ? (
        <EmptyState title="No notification matches these filters">Clear or widen the filters to see more of the timeline.</EmptyState>
      ) : notifications.length === 0 ? (
        <EmptyState title={`No notifications for ${userId}`}>
          Either nothing has been sent to this user yet, or no user has this id. Ids match exactly, case included, as
          your backend sends them.
        </EmptyState>
      ) : (
        <>
          <UserHistoryTable notifications={notifications} canResend={canResend} />
          <div className="table-footer" ref={sentinel}>
            {history.isFetchNextPageError && (
              <p className="field-error" role="alert">
                {getErrorMessage(history.error)}
              </p>
            )}
            {history.hasNextPage ? (
              <Button onClick={() => history.fetchNextPage()} pending={history.isFetchingNextPage}>
                Load more
              </Button>
            ) : (
              <p className="muted">
                {notifications.length === 1 ? "1 notification" : `${notifications.length} notifications`}
                {isFiltered(filter) ? ": every one that matches." : ": the whole history."}
              </p>
            )}
          </div>
        </>
      )}
    </Card>
  );
}

/** Whether a loaded notification is still pending, or recently sent and awaiting the provider's callback. */
function isInMotion(data: InfiniteData<{ items: UserNotification[] }> | undefined, now: number): boolean {
  return (data?.pages ?? []).some((page) =>
    page.items.some(
      (notification) =>
        notification.status === "pending" ||
        (notification.status === "sent" && now - Date.parse(notification.sentAt ?? notification.createdAt) < callbackWindowMs),
    ),
  );
}
