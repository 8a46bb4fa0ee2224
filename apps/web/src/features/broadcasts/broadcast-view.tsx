import { useQuery } from "@tanstack/react-query";
import { Link, useLocation } from "react-router";
import { Card } from "../../components/ui/card.tsx";
import { ChannelBadge } from "../../components/ui/channel-badge.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { PageHeader } from "../../components/ui/page-header.tsx";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import { PageSpinner } from "../../components/ui/spinner.tsx";
import { hasErrorCode } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { BroadcastActions } from "./broadcast-actions.tsx";
import { BroadcastComposer, type ComposerLocationState } from "./broadcast-composer.tsx";
import { BroadcastReport } from "./broadcast-report.tsx";
import { BroadcastStatusBadge } from "./broadcast-status-badge.tsx";
import type { Broadcast, BroadcastStatus } from "./broadcast-types.ts";
import { DryRunCard } from "./dry-run-card.tsx";
import { LiveProgress, ScheduledCard } from "./live-progress.tsx";

// Fast while it sends, so pause takes effect on screen within seconds; slower while it waits.
const POLL_MS: Partial<Record<BroadcastStatus, number>> = { sending: 2000, scheduled: 5000, paused: 5000 };

/** /broadcasts/:id: a draft opens in the composer; anything later shows its progress, then its report. */
export function BroadcastView({ id, canSend }: { id: string; canSend: boolean }) {
  const trpc = useTRPC();
  const location = useLocation();
  const detail = useQuery(
    trpc.broadcasts.get.queryOptions({ id }, { refetchInterval: (query) => POLL_MS[query.state.data?.broadcast.status ?? "draft"] ?? false }),
  );
  const back = (
    <p className="broadcast-breadcrumb">
      <Link to="/broadcasts">← Broadcasts</Link>
    </p>
  );

  if (detail.isPending) return <PageSpinner label="Loading the broadcast" />;
  if (detail.isError) {
    return (
      <>
        {back}
        <PageHeader title="Broadcast" />
        <Card>
          {hasErrorCode(detail.error, "NOT_FOUND") ? (
            <EmptyState title="No such broadcast" action={<Link to="/broadcasts">See every broadcast</Link>}>
              It may have been a draft that was deleted, or the address was mistyped.
            </EmptyState>
          ) : (
            <ErrorState error={detail.error} title="Could not load this broadcast" onRetry={() => detail.refetch()} retrying={detail.isFetching} />
          )}
        </Card>
      </>
    );
  }

  const { broadcast, progress } = detail.data;
  if (broadcast.status === "draft" && canSend) {
    const state = location.state as ComposerLocationState;
    return <BroadcastComposer broadcast={broadcast} initialStep={state?.step ?? "review"} initialSchedule={state?.schedule} />;
  }
  return (
    <>
      {back}
      <BroadcastHeader broadcast={broadcast} canSend={canSend} />
      <div className="stack">
        {broadcast.status === "draft" && (
          <>
            <Card title="Draft">
              <p>It is being composed: nothing is sent until a marketer schedules it.</p>
            </Card>
            <DryRunCard id={broadcast.id} variants={broadcast.variants.map((v) => v.version)} />
          </>
        )}
        {broadcast.status === "scheduled" && <ScheduledCard broadcast={broadcast} />}
        {broadcast.status !== "draft" && broadcast.status !== "scheduled" && <LiveProgress broadcast={broadcast} progress={progress} />}
        {(broadcast.status === "sent" || (broadcast.status === "canceled" && broadcast.startedAt !== null)) && <BroadcastReport broadcast={broadcast} />}
      </div>
    </>
  );
}

function BroadcastHeader({ broadcast: b, canSend }: { broadcast: Broadcast; canSend: boolean }) {
  return (
    <PageHeader
      title={b.name}
      description={
        <span className="broadcast-facts">
          <BroadcastStatusBadge status={b.status} />
          <span>
            {"to "}
            {b.segmentName ? <Link to={`/segments/${b.segmentId}`}>{b.segmentName}</Link> : "a deleted segment"}
          </span>
          <span className="muted">·</span>
          <span>
            <Link to={`/templates/${encodeURIComponent(b.templateKey)}`}>
              <code className="code">{b.templateKey}</code>
            </Link>{" "}
            {b.variants.map((v) => `v${v.version}${b.variants.length > 1 ? ` ${v.percent} %` : ""}`).join(" / ")}
          </span>
          {b.channels.map((channel) => (
            <ChannelBadge key={channel} channel={channel} />
          ))}
          <span className="muted">
            {`category ${b.category} · ${b.lane} lane`}
            {b.holdoutPercent > 0 && ` · ${b.holdoutPercent} % held out`}
            {b.throttlePerMinute !== null && ` · at most ${b.throttlePerMinute}/min`}
            {b.startedAt && (
              <>
                {" · started "}
                <RelativeTime iso={b.startedAt} />
              </>
            )}
            {b.finishedAt && (
              <>
                {" · finished "}
                <RelativeTime iso={b.finishedAt} />
              </>
            )}
          </span>
        </span>
      }
      actions={canSend && <BroadcastActions broadcast={b} />}
    />
  );
}
