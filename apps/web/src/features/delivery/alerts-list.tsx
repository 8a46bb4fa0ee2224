import { useInfiniteQuery } from "@tanstack/react-query";
import { Badge } from "../../components/ui/badge.tsx";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { LoadMoreFooter } from "../../components/ui/load-more-footer.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { formatDateTime } from "../../lib/format-date.ts";
import { useTRPC } from "../../lib/trpc.ts";

const pageSize = 50;
const refreshMs = 30_000;

const kindLabels: Record<string, string> = {
  dead_letter_depth: "Dead letters",
  breaker_open: "Circuit open",
  complaint_rate: "Complaint rate",
  bounce_rate: "Bounce rate",
  backlog_age: "Backlog age",
};

/** Every alert Herald raised, open ones first by time, with when each was raised and resolved. */
export function AlertsList() {
  const trpc = useTRPC();
  const list = useInfiniteQuery(
    trpc.operations.alerts.infiniteQueryOptions(
      { limit: pageSize },
      { getNextPageParam: (page) => page.nextCursor, refetchInterval: refreshMs },
    ),
  );
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Card
      title="Alerts"
      description="Raised once when a threshold is crossed (Settings → General → Alert …) and resolved when the condition clears. Checked every minute."
      flush
    >
      {list.isPending ? (
        <TableSkeleton columns={5} rows={4} label="Loading alerts" />
      ) : list.isError && items.length === 0 ? (
        <ErrorState error={list.error} title="Could not load alerts" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : items.length === 0 ? (
        <EmptyState title="No alerts yet">Nothing has crossed a threshold. Alerts appear here, and as a banner on every page, when something does.</EmptyState>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" aria-label="Alerts">
              <thead>
                <tr>
                  <th scope="col">State</th>
                  <th scope="col">Alert</th>
                  <th scope="col">What happened</th>
                  <th scope="col">Raised</th>
                  <th scope="col">Resolved</th>
                </tr>
              </thead>
              <tbody>
                {items.map((a) => (
                  <tr key={a.id}>
                    <td>{a.resolvedAt ? <Badge tone="success">Resolved</Badge> : <Badge tone="danger">Open</Badge>}</td>
                    <td className="cell-strong">
                      {kindLabels[a.kind] ?? a.kind}
                      {a.subject && <span className="muted"> · {a.subject}</span>}
                    </td>
                    <td>{a.message}</td>
                    <td className="cell-nowrap">{formatDateTime(a.raisedAt)}</td>
                    <td className="cell-nowrap">{a.resolvedAt ? formatDateTime(a.resolvedAt) : <span className="muted">—</span>}</td>
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
