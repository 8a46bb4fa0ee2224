import { ChannelBadge } from "../../components/ui/channel-badge.tsx";
import type { LaneHealth } from "./delivery-types.ts";
import { formatAge } from "./format-age.ts";

/** Per channel and lane: what is due and not yet sent, how long the oldest has waited, what went out lately. */
export function BacklogTable({ lanes, windowMinutes }: { lanes: LaneHealth[]; windowMinutes: number }) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Backlog per channel and lane">
        <thead>
          <tr>
            <th scope="col">Channel</th>
            <th scope="col">Lane</th>
            <th scope="col" className="cell-number" title="Due, waiting for the pump to give them a job">
              Waiting
            </th>
            <th scope="col" className="cell-number" title="Holding a job: queued in the worker or being sent">
              In flight
            </th>
            <th scope="col" className="cell-number">
              Oldest due
            </th>
            <th scope="col" className="cell-number">
              Sent ({windowMinutes} min)
            </th>
            <th scope="col" className="cell-number" title="Provider calls that did not end in a send: retries, dead letters, outages">
              Not sent ({windowMinutes} min)
            </th>
          </tr>
        </thead>
        <tbody>
          {lanes.map((lane) => (
            <tr key={`${lane.channel}:${lane.lane}`} data-lane={`${lane.channel}:${lane.lane}`}>
              <td>
                <ChannelBadge channel={lane.channel} />
              </td>
              <td>{lane.lane === "critical" ? "Critical" : "Bulk"}</td>
              <td className="cell-number">{lane.waiting.toLocaleString()}</td>
              <td className="cell-number">{lane.inFlight.toLocaleString()}</td>
              <td className="cell-number">{lane.oldestAgeSeconds === null ? <span className="muted">—</span> : formatAge(lane.oldestAgeSeconds)}</td>
              <td className="cell-number">{lane.sentRecently.toLocaleString()}</td>
              <td className="cell-number">{lane.failedRecently > 0 ? lane.failedRecently.toLocaleString() : <span className="muted">0</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
