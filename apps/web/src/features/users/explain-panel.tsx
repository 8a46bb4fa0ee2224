import { skipToken, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { SelectField } from "../../components/ui/field.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import type { Explanation, UserDetails } from "../../lib/api-types.ts";
import { channelLabel, channels, parseChannel } from "../../lib/channels.ts";
import { formatTimestamp } from "../../lib/format-date.ts";
import { useTRPC } from "../../lib/trpc.ts";

type Subject = { kind: "type"; type: string } | { kind: "category"; category: string; channel: (typeof channels)[number]; lane: "bulk" | "critical" };

const outcomeTone: Record<Explanation["outcome"], BadgeTone> = { send: "success", skip: "danger", defer: "warning", wait: "warning" };
const outcomeLabel: Record<Explanation["outcome"], string> = { send: "Would send", skip: "Skipped", defer: "Deferred", wait: "Would wait" };
const stepLabel: Record<Explanation["steps"][number]["step"], string> = {
  preference: "Preference",
  suppression: "Suppression",
  reachability: "Address",
  quiet_hours: "Quiet hours",
  frequency_cap: "Frequency cap",
  provider: "Provider",
};
const stepMark = { pass: "✓", stop: "✗", not_reached: "·" } as const;

/**
 * "What would happen if we sent this now?" The server runs the same gate function every real
 * send runs and puts each gate's verdict into words.
 */
export function ExplainPanel({ userId, details }: { userId: string; details: UserDetails }) {
  const trpc = useTRPC();
  const [mode, setMode] = useState<"type" | "category">("type");
  const [type, setType] = useState(details.notificationTypes[0] ?? "");
  const [category, setCategory] = useState(details.categories[0]?.key ?? "");
  const [channel, setChannel] = useState<(typeof channels)[number]>("email");
  const [lane, setLane] = useState<"bulk" | "critical">("bulk");
  const [subject, setSubject] = useState<Subject | null>(null);
  const explained = useQuery({
    ...trpc.users.explain.queryOptions(subject ? { userId, subject } : skipToken),
    // "Now" moves: never show an old answer as if it were current.
    staleTime: 0,
    gcTime: 0,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Subject = mode === "type" ? { kind: "type", type } : { kind: "category", category, channel, lane };
    if (JSON.stringify(next) === JSON.stringify(subject)) void explained.refetch();
    else setSubject(next);
  }

  const nothingToPick = mode === "type" ? details.notificationTypes.length === 0 : details.categories.length === 0;

  return (
    <Card title="Explain" description="What would happen, gate by gate, if this were sent to the user now — the engine's own gates, not a guess.">
      <form className="form-inline explain-form" onSubmit={submit} aria-label="Explain a send">
        <SelectField label="Ask about" value={mode} onChange={(e) => setMode(e.target.value === "category" ? "category" : "type")}>
          <option value="type">A notification type</option>
          <option value="category">A category on a channel</option>
        </SelectField>
        {mode === "type" ? (
          <SelectField label="Notification type" value={type} onChange={(e) => setType(e.target.value)}>
            {details.notificationTypes.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </SelectField>
        ) : (
          <>
            <SelectField label="Category" value={category} onChange={(e) => setCategory(e.target.value)}>
              {details.categories.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.label}
                </option>
              ))}
            </SelectField>
            <SelectField label="Channel" value={channel} onChange={(e) => setChannel(parseChannel(e.target.value) ?? "email")}>
              {channels.map((c) => (
                <option key={c} value={c}>
                  {channelLabel(c)}
                </option>
              ))}
            </SelectField>
            <SelectField label="Lane" value={lane} onChange={(e) => setLane(e.target.value === "critical" ? "critical" : "bulk")}>
              <option value="bulk">Bulk</option>
              <option value="critical">Critical</option>
            </SelectField>
          </>
        )}
        <Button type="submit" variant="primary" className="form-inline-submit" disabled={nothingToPick} pending={explained.isFetching}>
          Explain
        </Button>
      </form>
      {nothingToPick && <p className="muted">{mode === "type" ? "No notification types are configured yet." : "No categories are configured yet."}</p>}
      {subject === null ? null : explained.isPending ? (
        <Spinner label="Asking the gates" />
      ) : explained.isError ? (
        <ErrorState error={explained.error} title="Could not explain this" onRetry={() => explained.refetch()} retrying={explained.isFetching} />
      ) : (
        <div className="explanations" aria-label="Explanation">
          <p className="muted">As of {formatTimestamp(explained.data.at)}.</p>
          {explained.data.explanations.map((e, i) => (
            <ExplanationView key={`${e.channel}-${i}`} explanation={e} />
          ))}
        </div>
      )}
    </Card>
  );
}

function ExplanationView({ explanation }: { explanation: Explanation }) {
  return (
    <section className="explanation" aria-label={`${channelLabel(explanation.channel)} explanation`}>
      <p className="explanation-headline">
        <Badge tone={outcomeTone[explanation.outcome]}>{outcomeLabel[explanation.outcome]}</Badge> {explanation.headline}
        {explanation.reason && <code className="code explanation-reason">{explanation.reason}</code>}
      </p>
      <ol className="explanation-steps">
        {explanation.steps.map((step) => (
          <li key={step.step} className={`explanation-step explanation-step-${step.outcome}`}>
            <span className="explanation-mark" aria-hidden="true">
              {stepMark[step.outcome]}
            </span>
            <span className="explanation-step-name">{stepLabel[step.step]}</span>
            <span>{step.words}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
