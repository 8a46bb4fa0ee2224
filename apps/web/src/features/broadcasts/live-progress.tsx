import { Alert } from "../../components/ui/alert.tsx";
import { Card } from "../../components/ui/card.tsx";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { channelLabel } from "../../lib/channels.ts";
import { describeReason } from "../../lib/describe-reason.ts";
import { formatDateTime } from "../../lib/format-date.ts";
import { BarChart } from "./bar-chart.tsx";
import type { Broadcast, BroadcastProgress, Funnel } from "./broadcast-types.ts";
import { describeSchedule, formatLocalDateTime, type ScheduleLike } from "./describe-schedule.ts";
import { formatCount } from "./format-count.ts";
import { ProgressBar } from "./progress-bar.tsx";
import { settledOf } from "./settled.ts";

/** A scheduled broadcast: when it starts, and that its audience is decided then. */
export function ScheduledCard({ broadcast }: { broadcast: Broadcast }) {
  const schedule = broadcast.schedule as ScheduleLike;
  const startsAt = broadcast.startsAt && (
    <>
      <strong>{formatDateTime(broadcast.startsAt)}</strong> your time (<RelativeTime iso={broadcast.startsAt} />)
    </>
  );
  return (
    <Card title="Scheduled">
      <p>
        {schedule?.kind === "local" ? (
          <>
            {`Each recipient gets it at ${formatLocalDateTime(String(schedule.localDateTime))} in their own time zone. Sending starts when the first time zone gets there: `}
            {startsAt ?? "at its scheduled time"}.
          </>
        ) : (
          <>
            {"Sending starts "}
            {startsAt ?? "at its scheduled time"}
            {schedule?.kind === "at" && typeof schedule.timezone === "string" && `, which is ${describeSchedule(schedule)}`}.
          </>
        )}{" "}
        Who is in the segment is decided when it starts; until then it can be unscheduled and edited.
      </p>
    </Card>
  );
}

/** The live counters: how far it is, the funnel so far, per channel, and what the gates skipped. */
export function LiveProgress({ broadcast, progress }: { broadcast: Broadcast; progress: BroadcastProgress }) {
  const { total } = progress;
  const settled = settledOf(total);
  const isSending = broadcast.status === "sending";
  const isFanningOut = broadcast.fanoutDoneAt === null && (isSending || broadcast.status === "paused");
  const reasons = Object.entries(total.byReason).sort((a, b) => b[1] - a[1]);

  return (
    <Card
      title={broadcast.status === "sent" ? "Delivery" : "Progress"}
      description={isSending ? "Updates every few seconds while it sends." : undefined}
      actions={isSending && <Spinner size="sm" label="Sending" />}
    >
      <div className="stack">
        {broadcast.status === "paused" && (
          <Alert tone="warning" title="Paused">
            {broadcast.pauseReason ? `${capitalise(broadcast.pauseReason)}. ` : ""}
            No new notifications go out until it is resumed; those already with a provider finish.
          </Alert>
        )}
        <ProgressBar
          label={
            broadcast.status === "sent" ? "Done"
            : broadcast.status === "canceled" ? "Canceled"
            : broadcast.status === "paused" ? "Paused"
            : isFanningOut ? "Adding recipients and sending"
            : "Sending"
          }
          value={total.targeted === 0 ? (broadcast.status === "sent" ? 1 : 0) : settled / total.targeted}
          done={broadcast.status === "sent"}
          detail={`${formatCount(settled)} of ${formatCount(total.targeted)} notifications settled`}
        />
        {isFanningOut && (
          <p className="muted" role="status">
            {`Recipients are still being added: ${formatCount(broadcast.targeted)} so far.`}
          </p>
        )}
        <FunnelStats funnel={total} heldOut={broadcast.heldOut} />
        {progress.byChannel.length > 1 && <ChannelTable byChannel={progress.byChannel} />}
        {reasons.length > 0 && (
          <section className="broadcast-stack-sm" aria-label="Not sent, by reason">
            <h3 className="broadcast-section-title">Not sent, by reason</h3>
            <BarChart
              label="Reason"
              valueHeading="Notifications"
              bars={reasons.map(([reason, count]) => ({
                key: reason,
                label: describeReason(reason),
                note: <code className="reason-code">{reason}</code>,
                value: count,
                tone: "danger",
              }))}
            />
          </section>
        )}
      </div>
    </Card>
  );
}

function FunnelStats({ funnel: f, heldOut }: { funnel: Funnel; heldOut: number }) {
  const stats: Array<[string, number, string?]> = [
    ["Targeted", f.targeted, "Notifications written: one per recipient and channel"],
    ["Held out", heldOut, "In the segment but deliberately sent nothing"],
    ["Pending", f.pending, "Waiting to be sent: queued, deferred, retrying or paused"],
    ["Sent", f.sent, "Handed to a provider"],
    ["Delivered", f.delivered],
    ["Opened", f.opened],
    ["Clicked", f.clicked],
    ["Failed", f.failed, "Bounced, refused by the provider, or out of retries"],
    ["Skipped", f.skipped, "Stopped by a gate: opted out, suppressed, unreachable, capped"],
    ["Canceled", f.canceled],
  ];
  return (
    <dl className="broadcast-stats" aria-label="Counters">
      {stats.map(([label, value, title]) => (
        <div className="broadcast-stat" key={label} title={title}>
          <dt>{label}</dt>
          <dd>{formatCount(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function ChannelTable({ byChannel }: { byChannel: BroadcastProgress["byChannel"] }) {
  return (
    <div className="table-wrap">
      <table className="table table-compact" aria-label="Progress by channel">
        <thead>
          <tr>
            <th scope="col">Channel</th>
            {["Targeted", "Pending", "Sent", "Delivered", "Opened", "Clicked", "Failed", "Skipped", "Canceled"].map((heading) => (
              <th key={heading} scope="col" className="cell-number">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {byChannel.map(({ channel, funnel: f }) => (
            <tr key={channel}>
              <th scope="row" className="broadcast-row-heading">{channelLabel(channel)}</th>
              {[f.targeted, f.pending, f.sent, f.delivered, f.opened, f.clicked, f.failed, f.skipped, f.canceled].map((value, index) => (
                <td key={index} className="cell-number">
                  {formatCount(value)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
