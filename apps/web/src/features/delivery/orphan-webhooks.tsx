import { useInfiniteQuery } from "@tanstack/react-query";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { LoadMoreFooter } from "../../components/ui/load-more-footer.tsx";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useManualRefresh } from "../../lib/use-manual-refresh.ts";

const pageSize = 50;

/** Provider webhooks about messages Herald does not know, newest first, a page at a time. */
export function OrphanWebhooks() {
  const trpc = useTRPC();
  const list = useInfiniteQuery(
    trpc.operations.orphanWebhooks.infiniteQueryOptions({ limit: pageSize }, { getNextPageParam: (page) => page.nextCursor }),
  );
  const { refresh, refreshing } = useManualRefresh(list.refetch);
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Card
      title="Orphaned webhooks"
      description="Webhooks a provider sent about a message no notification matches: sent by another system through the same account, or pruned. Kept for inspection; they change nothing."
      actions={
        <Button size="sm" onClick={refresh} pending={refreshing}>
          Refresh
        </Button>
      }
      flush
    >
      {list.isPending ? (
        <TableSkeleton columns={4} rows={5} label="Loading orphaned webhooks" />
      ) : list.isError && items.length === 0 ? (
        <ErrorState error={list.error} title="Could not load orphaned webhooks" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : items.length === 0 ? (
        <EmptyState title="No orphaned webhooks">Every webhook a provider sent matched a notification.</EmptyState>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" aria-label="Orphaned webhooks">
              <thead>
                <tr>
                  <th scope="col">Received</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Type</th>
                  <th scope="col">Provider message id</th>
                  <th scope="col">Body</th>
                </tr>
              </thead>
              <tbody>
                {items.map((w) => (
                  <tr key={w.id}>
                    <td className="cell-nowrap">
                      <RelativeTime iso={w.receivedAt} />
                    </td>
                    <td>{w.provider}</td>
                    <td>{w.kind}</td>
                    <td className="cell-truncate">{w.providerMessageId ? <code className="code">{w.providerMessageId}</code> : <span className="muted">—</span>}</td>
                    <td className="cell-truncate muted" title={w.raw}>
                      {w.raw}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <LoadMoreFooter query={list} size="sm" />
        </>
      )}
    </Card>
  );
}
