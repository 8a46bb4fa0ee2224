import { useId, useMemo } from "react";
import { TextField } from "../../components/ui/field.tsx";
import type { ComposerDraft, DraftErrors, ScheduleKind } from "./composer-draft.ts";

type StepProps = { draft: ComposerDraft; errors: DraftErrors; onChange: (patch: Partial<ComposerDraft>) => void };

const OPTIONS: Array<{ kind: ScheduleKind; title: string; text: string }> = [
  { kind: "now", title: "Send now", text: "Sending starts as soon as you confirm on the next step." },
  { kind: "at", title: "At a date and time", text: "One moment for everyone, written in the time zone you choose." },
  {
    kind: "local",
    title: "At a local time for each recipient",
    text: "“9:00” means 9:00 where each recipient is. People without a time zone get the workspace's default.",
  },
];

/** Step 4: when sending starts. */
export function ScheduleStep({ draft, errors, onChange }: StepProps) {
  const name = useId();
  const zonesId = useId();
  const zones = useMemo(() => (typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []), []);

  return (
    <div className="composer-fields">
      <fieldset className="composer-fieldset">
        <legend className="field-label">When</legend>
        <div className="composer-options">
          {OPTIONS.map((option) => (
            <label key={option.kind} className="composer-option">
              <input type="radio" name={name} checked={draft.scheduleKind === option.kind} onChange={() => onChange({ scheduleKind: option.kind })} />
              <span>
                <span className="composer-option-title">{option.title}</span>
                <span className="composer-option-text">{option.text}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {draft.scheduleKind === "at" && (
        <div className="composer-form-row">
          <TextField
            label="Date and time"
            name="at"
            type="datetime-local"
            value={draft.at}
            onChange={(event) => onChange({ at: event.target.value })}
            error={errors.at}
          />
          <TextField
            label="Time zone"
            name="timezone"
            list={zonesId}
            autoComplete="off"
            spellCheck={false}
            hint="The zone the date and time above are in."
            value={draft.timezone}
            onChange={(event) => onChange({ timezone: event.target.value })}
            error={errors.timezone}
          />
          <datalist id={zonesId}>
            {zones.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </div>
      )}
      {draft.scheduleKind === "local" && (
        <TextField
          label="Local date and time"
          name="local-date-time"
          type="datetime-local"
          className="composer-field-narrow"
          hint="Each recipient's notification waits until this time in their own zone. Zones already past it get it at once."
          value={draft.localDateTime}
          onChange={(event) => onChange({ localDateTime: event.target.value })}
          error={errors.localDateTime}
        />
      )}
    </div>
  );
}
