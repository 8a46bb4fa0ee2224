import { useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import type { Broadcast } from "./broadcast-types.ts";
import { formatCount, formatPercent } from "./format-count.ts";

const ACTIVITY = /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/;
const VERDICT_WORDS = {
  "B wins": "Those who got it did it more: the broadcast made a difference.",
  "A wins": "The holdout did it more than those who got it.",
  "no difference": "No clear difference between those who got it and the holdout.",
  "too early to tell": "Too early to tell: each group needs at least 100 people.",
} as const;

/** The holdout against those who got it, on an activity the marketer names, within a window after sending started. */
export function LiftCard({ broadcast }: { broadcast: Broadcast }) {
  const trpc = useTRPC();
  const [activity, setActivity] = useState("session_completed");
  const [hours, setHours] = useState("48");
  const [asked, setAsked] = useState<{ activity: string; windowHours: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const activities = useQuery(trpc.segments.activityNames.queryOptions(undefined, { staleTime: 60_000 }));
  const lift = useQuery(trpc.broadcasts.report.queryOptions({ id: broadcast.id, ...(asked ?? {}) }, { enabled: asked !== null }));
  const listId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const windowHours = Number(hours);
    if (!ACTIVITY.test(activity.trim())) return setError("Enter an activity name, e.g. session_completed.");
    if (!Number.isInteger(windowHours) || windowHours < 1 || windowHours > 24 * 90) return setError("Enter a whole number of hours from 1 to 2160.");
    setError(null);
    setAsked({ activity: activity.trim(), windowHours });
  }

  const result = lift.data?.lift;
  return (
    <Card
      title="Lift"
      description={`${broadcast.holdoutPercent} % of the segment was held out. Did those who got it do something more than those who did not?`}
    >
      <div className="stack">
        <form className="lift-form" onSubmit={submit} noValidate>
          <TextField label="Activity" list={listId} autoComplete="off" spellCheck={false} value={activity} onChange={(event) => setActivity(event.target.value)} />
          <TextField label="Within (hours)" type="number" min={1} step={1} className="lift-hours" value={hours} onChange={(event) => setHours(event.target.value)} />
          <Button type="submit" pending={lift.isFetching}>
            Compare
          </Button>
          <datalist id={listId}>
            {(activities.data?.items ?? []).map((seen) => (
              <option key={seen.name} value={seen.name} />
            ))}
          </datalist>
        </form>
        {error && <p className="field-error">{error}</p>}
        {lift.isError && <Alert tone="error">{getErrorMessage(lift.error)}</Alert>}
        {asked && lift.data && !result && <p className="muted">It has not started sending yet, so there is nothing to compare.</p>}
        {result && (
          <>
            <p>
              <Badge tone={result.test.verdict === "B wins" ? "success" : result.test.verdict === "too early to tell" ? "warning" : "neutral"}>{result.test.verdict === "B wins" ? "Lift" : result.test.verdict}</Badge>{" "}
              {VERDICT_WORDS[result.test.verdict]}
            </p>
            <div className="table-wrap">
              <table className="table table-compact" aria-label="Lift">
                <thead>
                  <tr>
                    <th scope="col">Group</th>
                    <th scope="col" className="cell-number">
                      People
                    </th>
                    <th scope="col" className="cell-number">
                      {`Did ${result.activity} within ${result.windowHours} h`}
                    </th>
                    <th scope="col" className="cell-number">
                      Rate
                    </th>
                  </tr>
                </thead>
                <tbody>
                  <tr>
                    <th scope="row" className="broadcast-row-heading">Got it</th>
                    <td className="cell-number">{formatCount(result.treated.users)}</td>
                    <td className="cell-number">{formatCount(result.treated.converted)}</td>
                    <td className="cell-number">{formatPercent(result.test.rateB)}</td>
                  </tr>
                  <tr>
                    <th scope="row" className="broadcast-row-heading">Held out</th>
                    <td className="cell-number">{formatCount(result.holdout.users)}</td>
                    <td className="cell-number">{formatCount(result.holdout.converted)}</td>
                    <td className="cell-number">{formatPercent(result.test.rateA)}</td>
                  </tr>
                </tbody>
              </table>
            </div>
          </>
        )}
      </div>
    </Card>
  );
}
