import { useQuery } from "@tanstack/react-query";
import { Alert } from "../../components/ui/alert.tsx";
import { Card } from "../../components/ui/card.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { channelLabel } from "../../lib/channels.ts";
import { describeReason } from "../../lib/describe-reason.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { BarChart, type Bar } from "./bar-chart.tsx";
import type { DryRun } from "./broadcast-types.ts";
import { formatCount, formatDuration } from "./format-count.ts";

/** The dry run of a saved draft: who would get it, who the gates would skip and why, and how long it takes. */
export function DryRunCard({ id, variants }: { id: string; variants: number[] }) {
  const dry = useDryRun(id);

  return (
    <Card
      title="Dry run"
      description="What sending now would do, checked against every recipient's preferences, suppressions, reachability, quiet hours and caps. Nothing is sent."
      actions={dry.isFetching && !dry.isPending && <Spinner size="sm" label="Updating the dry run" />}
    >
      {dry.isPending ? (
        <div role="status" className="composer-loading">
          <span className="visually-hidden">Running the dry run</span>
          <Skeleton width="40%" className="skeleton-input" />
          <Skeleton width="90%" />
          <Skeleton width="70%" />
        </div>
      ) : dry.isError ? (
        <ErrorState error={dry.error} title="Could not run the dry run" onRetry={() => dry.refetch()} retrying={dry.isFetching} />
      ) : (
        <DryRunResult dry={dry.data} variants={variants} />
      )}
    </Card>
  );
}

/** The dry run of a saved draft; the review reads the same query to decide whether sending is possible. */
export function useDryRun(id: string) {
  const trpc = useTRPC();
  return useQuery(trpc.broadcasts.dryRun.queryOptions({ id }, { staleTime: 0, refetchOnWindowFocus: false }));
}

function DryRunResult({ dry, variants }: { dry: DryRun; variants: number[] }) {
  const notifications = dry.rows.reduce((sum, row) => sum + row.count, 0);
  const skipped = dry.rows.filter((row) => row.verdict === "skip").reduce((sum, row) => sum + row.count, 0);
  const deferred = dry.rows.filter((row) => row.verdict === "defer").reduce((sum, row) => sum + row.count, 0);
  const byReason = new Map<string, number>();
  for (const row of dry.rows) {
    if (row.verdict === "skip") byReason.set(row.reason ?? "unknown", (byReason.get(row.reason ?? "unknown") ?? 0) + row.count);
  }
  const bars: Bar[] = [
    { key: "send", label: "Would be sent", value: dry.rows.filter((row) => row.verdict === "send").reduce((sum, row) => sum + row.count, 0), tone: "success" },
    ...(deferred > 0 ? [{ key: "defer", label: "Would wait for quiet hours to end", value: deferred, tone: "warning" as const }] : []),
    ...[...byReason.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([reason, count]): Bar => ({ key: `skip-${reason}`, label: `Skipped: ${describeReason(reason)}`, note: <code className="reason-code">{reason}</code>, value: count, tone: "danger" })),
  ];
  // In the order the broadcast lists them: A, B, …
  const versions = variants.filter((version) => dry.rows.some((row) => row.version === version));

  return (
    <div className="stack">
      {dry.audience === 0 ? (
        <Alert tone="warning" title="The segment matches nobody right now">
          There is no one to send to: sending is refused until someone matches. Check the segment's rule on the Segments page.
        </Alert>
      ) : dry.sendable === 0 ? (
        <Alert tone="warning" title="Every recipient would be skipped">
          The gates skip everyone: see why below. Sending is refused until someone can receive it.
        </Alert>
      ) : null}
      <dl className="broadcast-stats">
        <Stat label="In the segment" value={dry.audience} />
        <Stat label="Held out" value={dry.heldOut} />
        <Stat label="Notifications to send" value={dry.sendable} />
        <Stat label="Skipped by the gates" value={skipped} />
      </dl>
      <section aria-label="What happens to each notification" className="broadcast-stack-sm">
        <h3 className="broadcast-section-title">What happens to each notification</h3>
        <BarChart label="Verdict" bars={bars} total={notifications} valueHeading="Notifications" empty="No notifications: the audience is empty." />
      </section>
      <div className="table-wrap">
        <table className="table table-compact" aria-label="By channel">
          <thead>
            <tr>
              <th scope="col">Channel</th>
              <th scope="col" className="cell-number">
                Would send
              </th>
              <th scope="col">Provider</th>
              <th scope="col" className="cell-number">
                Rate
              </th>
              <th scope="col" className="cell-number">
                Time to send
              </th>
            </tr>
          </thead>
          <tbody>
            {dry.channels.map((c) => (
              <tr key={c.channel}>
                <th scope="row" className="broadcast-row-heading">{channelLabel(c.channel)}</th>
                <td className="cell-number">{formatCount(c.sendable)}</td>
                <td>{c.provider ?? <span className="muted">None configured</span>}</td>
                <td className="cell-number">{c.ratePerSecond === null ? "—" : `${formatCount(c.ratePerSecond)}/s`}</td>
                <td className="cell-number">{c.etaSeconds === null ? "—" : formatDuration(c.etaSeconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {versions.length > 1 && (
        <div className="table-wrap">
          <table className="table table-compact" aria-label="By variant">
            <thead>
              <tr>
                <th scope="col">Variant</th>
                {dry.channels.map((c) => (
                  <th key={c.channel} scope="col" className="cell-number">
                    {channelLabel(c.channel)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {versions.map((version) => (
                <tr key={version}>
                  <th scope="row" className="broadcast-row-heading">{`${String.fromCharCode(65 + variants.indexOf(version))} · v${version}`}</th>
                  {dry.channels.map((c) => (
                    <td key={c.channel} className="cell-number">
                      {formatCount(dry.rows.filter((row) => row.version === version && row.channel === c.channel && row.verdict !== "skip").reduce((sum, row) => sum + row.count, 0))}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {dry.sms && (
        <p className="muted">
          {`Each SMS is ${dry.sms.segmentsPerMessage} segment${dry.sms.segmentsPerMessage === 1 ? "" : "s"} (${dry.sms.encoding}): about ${formatCount(dry.sms.totalSegments)} segments in all, which is what SMS providers bill.`}
        </p>
      )}
    </div>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="broadcast-stat">
      <dt>{label}</dt>
      <dd>{formatCount(value)}</dd>
    </div>
  );
}
