import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { LoadMoreFooter } from "../../components/ui/load-more-footer.tsx";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { formatCount } from "./format-count.ts";
import type { SegmentSummary } from "./segment-types.ts";

const pageSize = 25;

/** Every segment with its size and when a broadcast last used it, a page at a time. */
export function SegmentsList({ canEdit }: { canEdit: boolean }) {
  const trpc = useTRPC();
  const list = useInfiniteQuery(trpc.segments.list.infiniteQueryOptions({ limit: pageSize }, { getNextPageParam: (page) => page.nextCursor }));
  const segments = list.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Card flush>
      {list.isPending ? (
        <TableSkeleton columns={4} rows={5} label="Loading segments" />
      ) : list.isError && segments.length === 0 ? (
        <ErrorState error={list.error} title="Could not load segments" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : segments.length === 0 ? (
        <EmptyState
          title="No segments yet"
          action={
            canEdit && (
              <Link className="btn btn-primary" to="/segments/new">
                New segment
              </Link>
            )
          }
        >
          A segment is a rule over what users did and what you know about them, such as “completed a session before, but none
          in the last 7 days”. Broadcasts are sent to a segment; its count updates as you build it. Start from scratch or copy
          one of the presets.
        </EmptyState>
      ) : (
        <>
          <SegmentsTable segments={segments} />
          <LoadMoreFooter query={list} end={<p className="muted">{segments.length === 1 ? "1 segment" : `${segments.length} segments`}.</p>} />
        </>
      )}
    </Card>
  );
}

function SegmentsTable({ segments }: { segments: SegmentSummary[] }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Segment</th>
            <th scope="col" className="cell-number">
              Size
            </th>
            <th scope="col">Last used</th>
            <th scope="col">Last edited</th>
          </tr>
        </thead>
        <tbody>
          {segments.map((segment) => (
            <tr key={segment.id}>
              <td>
                <Link to={`/segments/${segment.id}`} className="cell-strong">
                  {segment.name}
                </Link>
                {segment.description && <span className="cell-sub segment-cell-description">{segment.description}</span>}
                <span className="segment-cell-words">{segment.words}</span>
              </td>
              <td className="cell-number cell-nowrap">
                <SizeCell segment={segment} />
              </td>
              <td className="cell-nowrap">{segment.lastUsedAt ? <RelativeTime iso={segment.lastUsedAt} /> : <span className="muted">Never</span>}</td>
              <td className="cell-nowrap">
                <RelativeTime iso={segment.updatedAt} />
                {segment.updatedBy && <span className="cell-sub">by {segment.updatedBy}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The segment's size counted now (which also keeps it for next time); until the count answers,
 * the size it had when last counted, with when that was.
 */
function SizeCell({ segment }: { segment: SegmentSummary }) {
  const trpc = useTRPC();
  const live = useQuery(trpc.segments.count.queryOptions({ id: segment.id }, { staleTime: 60_000, retry: false, refetchOnWindowFocus: false }));
  const size = live.data?.size ?? segment.size;
  const countedAt = live.data?.countedAt ?? segment.sizeCountedAt;
  return (
    <span className="segment-size">
      {live.isFetching && <Spinner size="sm" label={`Counting ${segment.name}`} />}
      <span>
        {size === null ? (
          <span className="muted" title={live.error ? getErrorMessage(live.error) : "Not counted yet"}>
            —
          </span>
        ) : (
          formatCount(size)
        )}
        {live.isError ? (
          <span className="cell-sub" title={getErrorMessage(live.error)}>
            count failed
          </span>
        ) : (
          countedAt && (
            <span className="cell-sub">
              {live.data ? (
                "live"
              ) : (
                <>
                  {"counted "}
                  <RelativeTime iso={countedAt} />
                </>
              )}
            </span>
          )
        )}
      </span>
    </span>
  );
}
