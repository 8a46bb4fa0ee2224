import { useQuery } from "@tanstack/react-query";
import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { channelLabel } from "../../lib/channels.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { BarChart } from "./bar-chart.tsx";
import type { Broadcast, BroadcastReportAnswer, Funnel } from "./broadcast-types.ts";
import { formatCount, formatPercent } from "./format-count.ts";
import { LiftCard } from "./lift-card.tsx";

type Verdict = BroadcastReportAnswer["report"]["comparisons"][number]["opens"]["verdict"];

const VERDICT_TONE: Record<Verdict, BadgeTone> = { "A wins": "info", "B wins": "success", "no difference": "neutral", "too early to tell": "warning" };

/** When it is done: the funnel, per channel and variant, the variants compared, the holdout's lift and the CSV. */
export function BroadcastReport({ broadcast }: { broadcast: Broadcast }) {
  const trpc = useTRPC();
  const report = useQuery(trpc.broadcasts.report.queryOptions({ id: broadcast.id }));

  return (
    <>
      <Card
        title="Report"
        description="Opens and clicks keep arriving after sending ends; reload the page for the latest."
        actions={
          report.data && (
            <Button onClick={() => downloadCsv(`broadcast-${broadcast.id}-report.csv`, report.data.csv)}>Download CSV</Button>
          )
        }
      >
        {report.isPending ? (
          <TableSkeleton columns={4} rows={4} label="Loading the report" />
        ) : report.isError ? (
          <ErrorState error={report.error} title="Could not load the report" onRetry={() => report.refetch()} retrying={report.isFetching} />
        ) : (
          <ReportBody answer={report.data} />
        )}
      </Card>
      {broadcast.holdoutPercent > 0 && <LiftCard broadcast={broadcast} />}
    </>
  );
}

function ReportBody({ answer }: { answer: BroadcastReportAnswer }) {
  const { report } = answer;
  const f = report.total;
  const hasVariants = new Set(report.byVariant.map((v) => v.version)).size > 1;
  return (
    <div className="stack">
      <section className="broadcast-stack-sm" aria-label="Funnel">
        <h3 className="broadcast-section-title">Funnel</h3>
        <BarChart
          label="Stage"
          valueHeading="Notifications"
          total={f.targeted}
          bars={[
            { key: "targeted", label: "Targeted", value: f.targeted, tone: "neutral" },
            { key: "sent", label: "Sent", value: f.sent, tone: "accent" },
            { key: "delivered", label: "Delivered", value: f.delivered, tone: "accent" },
            { key: "opened", label: "Opened", value: f.opened, tone: "success" },
            { key: "clicked", label: "Clicked", value: f.clicked, tone: "success" },
            { key: "failed", label: "Failed", value: f.failed, tone: "danger" },
            { key: "skipped", label: "Skipped", value: f.skipped, tone: "warning" },
            { key: "canceled", label: "Canceled", value: f.canceled, tone: "neutral" },
          ]}
        />
      </section>
      <div className="table-wrap">
        <table className="table table-compact" aria-label={hasVariants ? "By channel and variant" : "By channel"}>
          <thead>
            <tr>
              <th scope="col">Channel</th>
              {hasVariants && <th scope="col">Variant</th>}
              {["Targeted", "Sent", "Delivered", "Opened", "Clicked", "Open rate", "Click rate", "Failed", "Skipped"].map((heading) => (
                <th key={heading} scope="col" className="cell-number">
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(hasVariants ? report.byVariant : report.byChannel.map((c) => ({ ...c, version: null }))).map((row) => (
              <tr key={`${row.channel}-${row.version}`}>
                <th scope="row" className="broadcast-row-heading">{channelLabel(row.channel)}</th>
                {hasVariants && <td>{`v${row.version}`}</td>}
                <FunnelCells funnel={row.funnel} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {report.comparisons.length > 0 && (
        <section className="broadcast-stack-sm" aria-label="Variants compared">
          <h3 className="broadcast-section-title">Variants compared</h3>
          <p className="muted">Each variant against the first (A), on open and click rates, by a two-proportion z-test at 95 %. Below 100 per group it is too early to tell.</p>
          <div className="table-wrap">
            <table className="table table-compact" aria-label="Variants compared">
              <thead>
                <tr>
                  <th scope="col">Channel</th>
                  <th scope="col">A vs B</th>
                  <th scope="col">Opens</th>
                  <th scope="col">Clicks</th>
                </tr>
              </thead>
              <tbody>
                {report.comparisons.map((c) => (
                  <tr key={`${c.channel}-${c.challenger}`}>
                    <th scope="row" className="broadcast-row-heading">{channelLabel(c.channel)}</th>
                    <td className="cell-nowrap">{`v${c.control} vs v${c.challenger}`}</td>
                    <td>
                      <Comparison result={c.opens} />
                    </td>
                    <td>
                      <Comparison result={c.clicks} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}

function FunnelCells({ funnel: f }: { funnel: Funnel }) {
  const base = f.delivered > 0 ? f.delivered : f.sent;
  const rate = (n: number) => (base === 0 ? "—" : formatPercent(n / base));
  return (
    <>
      {[f.targeted, f.sent, f.delivered, f.opened, f.clicked].map((value, index) => (
        <td key={index} className="cell-number">
          {formatCount(value)}
        </td>
      ))}
      <td className="cell-number">{rate(f.opened)}</td>
      <td className="cell-number">{rate(f.clicked)}</td>
      <td className="cell-number">{formatCount(f.failed)}</td>
      <td className="cell-number">{formatCount(f.skipped)}</td>
    </>
  );
}

function Comparison({ result }: { result: { rateA: number; rateB: number; pValue: number; verdict: Verdict } }) {
  return (
    <span className="broadcast-comparison">
      <Badge tone={VERDICT_TONE[result.verdict]}>{result.verdict}</Badge>
      <span className="muted">{`${formatPercent(result.rateA)} vs ${formatPercent(result.rateB)} · p = ${result.pValue.toFixed(3)}`}</span>
    </span>
  );
}

/** Saves the report's CSV under `name`; the server built it, the browser only hands it over. */
function downloadCsv(name: string, csv: string) {
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has been handled: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
