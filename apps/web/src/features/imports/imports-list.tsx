import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { LoadMoreFooter } from "../../components/ui/load-more-footer.tsx";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { formatCount } from "./format-count.ts";
import { ImportStatusBadge, KIND_LABELS } from "./import-status-badge.tsx";

const pageSize = 25;

/** Every import, newest first; refreshes itself while one is running. */
export function ImportsList() {
  const trpc = useTRPC();
  const list = useInfiniteQuery(
    trpc.imports.list.infiniteQueryOptions(
      { limit: pageSize },
      {
        getNextPageParam: (page) => page.nextCursor,
        refetchInterval: (query) =>
          query.state.data?.pages.some((p) => p.items.some((i) => i.status === "queued" || i.status === "running")) ? 2000 : false,
      },
    ),
  );
  const imports = list.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Card title="Imports" flush>
      {list.isPending ? (
        <TableSkeleton columns={6} rows={3} label="Loading imports" />
      ) : list.isError ? (
        <ErrorState error={list.error} title="Could not load imports" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : imports.length === 0 ? (
        <EmptyState title="No imports yet">
          Upload a CSV file above to bring in users with their attributes, or the addresses and opt-outs your previous tool
          kept, so nobody who left is ever messaged again.
        </EmptyState>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="cell-number">
                    Rows
                  </th>
                  <th scope="col" className="cell-number">
                    Imported
                  </th>
                  <th scope="col" className="cell-number">
                    Refused
                  </th>
                  <th scope="col">Uploaded</th>
                </tr>
              </thead>
              <tbody>
                {imports.map((i) => (
                  <tr key={i.id}>
                    <td className="cell-strong cell-break">
                      <Link to={`/imports/${i.id}`}>{i.fileName}</Link>
                    </td>
                    <td>{i.kind ? KIND_LABELS[i.kind] : <span className="muted">—</span>}</td>
                    <td>
                      <ImportStatusBadge status={i.status} />
                    </td>
                    <td className="cell-number">{formatCount(i.totalRows)}</td>
                    <td className="cell-number">{i.status === "uploaded" ? "—" : formatCount(i.importedRows)}</td>
                    <td className="cell-number">{i.status === "uploaded" ? "—" : formatCount(i.failedRows)}</td>
                    <td className="cell-nowrap">
                      <RelativeTime iso={i.createdAt} />
                      {i.createdBy && <span className="cell-sub">by {i.createdBy}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <LoadMoreFooter query={list} />
        </>
      )}
    </Card>
  );
}
