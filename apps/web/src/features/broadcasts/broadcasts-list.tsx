import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { Card } from "../../components/ui/card.tsx";
import { ChannelBadge } from "../../components/ui/channel-badge.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { SelectField } from "../../components/ui/field.tsx";
import { LoadMoreFooter } from "../../components/ui/load-more-footer.tsx";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { formatDateTime } from "../../lib/format-date.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { BroadcastStatusBadge, STATUS_FILTERS } from "./broadcast-status-badge.tsx";
import type { BroadcastStatus, BroadcastSummary } from "./broadcast-types.ts";
import { formatCount } from "./format-count.ts";
import { ProgressBar } from "./progress-bar.tsx";

const pageSize = 25;
const POLL_MS = 3000;

/** Every broadcast, newest first, filterable by status, with its counters; refreshes itself while one on screen sends. */
export function BroadcastsList({ canSend }: { canSend: boolean }) {
  const trpc = useTRPC();
  const [status, setStatus] = useState<BroadcastStatus | "">("");
  const list = useInfiniteQuery(
    trpc.broadcasts.list.infiniteQueryOptions(status ? { status, limit: pageSize } : { limit: pageSize }, {
      getNextPageParam: (page) => page.nextCursor,
      placeholderData: keepPreviousData,
      // The counters come with the page, so one list query a few seconds apart follows every row.
      refetchInterval: (query) => (query.state.data?.pages.some((page) => page.items.some((b) => b.status === "sending")) ? POLL_MS : false),
    }),
  );
  const broadcasts = list.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Card flush>
      {/* Nothing to filter in an empty workspace: the empty state speaks alone. */}
      {(status !== "" || broadcasts.length > 0) && (
        <form className="toolbar" aria-label="Filter broadcasts" onSubmit={(event) => event.preventDefault()}>
          <SelectField
            label="Status"
            name="status"
            className="toolbar-field-sm"
            value={status}
            onChange={(event) => setStatus(STATUS_FILTERS.find((f) => f.value === event.target.value)?.value ?? "")}
          >
            {STATUS_FILTERS.map((filter) => (
              <option key={filter.value} value={filter.value}>
                {filter.label}
              </option>
            ))}
          </SelectField>
        </form>
      )}
      {list.isPending ? (
        <TableSkeleton columns={5} rows={5} label="Loading broadcasts" />
      ) : list.isError && broadcasts.length === 0 ? (
        <ErrorState error={list.error} title="Could not load broadcasts" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : broadcasts.length === 0 ? (
        status ? (
          <EmptyState title={`No ${STATUS_FILTERS.find((f) => f.value === status)?.label.toLowerCase()} broadcasts`}>Choose another status to see the others.</EmptyState>
        ) : (
          <EmptyState
            title="No broadcasts yet"
            action={
              canSend && (
                <Link className="btn btn-primary" to="/broadcasts/new">
                  New broadcast
                </Link>
              )
            }
          >
            A broadcast sends one template to everyone in a segment — now, at a set time, or at the same local time for each
            recipient — and reports who received, opened and clicked it. It needs a <Link to="/segments">segment</Link> and a
            published <Link to="/templates">template</Link>; a dry run shows who would get it before anything is sent.
          </EmptyState>
        )
      ) : (
        <>
          <BroadcastsTable broadcasts={broadcasts} />
          <LoadMoreFooter query={list} end={<p className="muted">{broadcasts.length === 1 ? "1 broadcast" : `${broadcasts.length} broadcasts`}.</p>} />
        </>
      )}
    </Card>
  );
}

function BroadcastsTable({ broadcasts }: { broadcasts: BroadcastSummary[] }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Broadcast</th>
            <th scope="col">Status</th>
            <th scope="col">Channels</th>
            <th scope="col" className="broadcast-col-progress">
              Progress
            </th>
            <th scope="col">When</th>
          </tr>
        </thead>
        <tbody>
          {broadcasts.map((b) => (
            <tr key={b.id}>
              <td>
                <Link to={`/broadcasts/${b.id}`} className="cell-strong">
                  {b.name}
                </Link>
                <span className="cell-sub">{b.segmentName ? `to ${b.segmentName}` : "segment deleted"}</span>
              </td>
              <td>
                <BroadcastStatusBadge status={b.status} />
              </td>
              <td>
                <span className="broadcast-badges">
                  {b.channels.map((channel) => (
                    <ChannelBadge key={channel} channel={channel} />
                  ))}
                </span>
              </td>
              <td className="broadcast-col-progress">
                <ProgressCell broadcast={b} />
              </td>
              <td className="cell-nowrap">
                <When broadcast={b} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** How far a started broadcast is, from the counters the list returns with each row. */
function ProgressCell({ broadcast }: { broadcast: BroadcastSummary }) {
  const started = broadcast.status === "sending" || broadcast.status === "paused" || broadcast.status === "sent" || (broadcast.status === "canceled" && broadcast.startedAt !== null);
  if (!started) return <span className="muted">{broadcast.status === "scheduled" ? "Not started" : "—"}</span>;
  const c = broadcast.counters;
  const problems = [c.failed > 0 && `${formatCount(c.failed)} failed`, c.skipped > 0 && `${formatCount(c.skipped)} skipped`].filter(Boolean).join(" · ");
  return (
    <ProgressBar
      compact
      label={`Progress of ${broadcast.name}`}
      value={c.progress ?? (broadcast.status === "sent" ? 1 : 0)}
      done={broadcast.status === "sent"}
      detail={`${formatCount(c.sent)} sent of ${formatCount(c.targeted)}${problems ? ` · ${problems}` : ""}`}
    />
  );
}

function When({ broadcast: b }: { broadcast: BroadcastSummary }) {
  if (b.status === "scheduled" && b.startsAt) {
    return (
      <>
        <span>Starts {formatDateTime(b.startsAt)}</span>
        <span className="cell-sub">
          <RelativeTime iso={b.startsAt} />
        </span>
      </>
    );
  }
  if (b.finishedAt) {
    return (
      <>
        <span>Finished <RelativeTime iso={b.finishedAt} /></span>
        {b.startedAt && <span className="cell-sub">started {formatDateTime(b.startedAt)}</span>}
      </>
    );
  }
  if (b.startedAt) return <span>Started <RelativeTime iso={b.startedAt} /></span>;
  return (
    <>
      <span>Created <RelativeTime iso={b.createdAt} /></span>
      {b.createdBy && <span className="cell-sub">by {b.createdBy}</span>}
    </>
  );
}
