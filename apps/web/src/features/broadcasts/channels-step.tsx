import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { CategorySelect } from "../../components/pickers/category-select.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { channelLabel, channels, type Channel } from "../../lib/channels.ts";
import { useTRPC } from "../../lib/trpc.ts";
import type { ComposerDraft, DraftErrors } from "./composer-draft.ts";

type StepProps = { draft: ComposerDraft; errors: DraftErrors; onChange: (patch: Partial<ComposerDraft>) => void };

/** Step 3: which channels, the category whose preferences and caps apply, the lane and an optional throttle. */
export function ChannelsStep({ draft, errors, onChange }: StepProps) {
  const trpc = useTRPC();
  const template = useQuery(trpc.templates.get.queryOptions({ key: draft.templateKey }, { enabled: draft.templateKey !== "" }));
  const offered = template.data?.template.channels ?? channels;
  const channelsHint = useId();
  const laneName = useId();

  function toggle(channel: Channel, on: boolean) {
    const next = new Set(draft.channels);
    if (on) next.add(channel);
    else next.delete(channel);
    onChange({ channels: channels.filter((c) => next.has(c)) });
  }

  return (
    <div className="composer-fields">
      <fieldset className="composer-fieldset" aria-describedby={channelsHint} aria-invalid={errors.channels ? true : undefined}>
        <legend className="field-label">Channels</legend>
        <div className="composer-checkboxes">
          {channels.map((channel) => {
            const has = offered.includes(channel);
            return (
              <label key={channel} className="checkbox" title={has ? undefined : "The template has no content for this channel"}>
                <input type="checkbox" checked={draft.channels.includes(channel)} disabled={!has} onChange={(event) => toggle(channel, event.target.checked)} />
                {channelLabel(channel)}
              </label>
            );
          })}
        </div>
        {errors.channels ? (
          <p className="field-error" id={channelsHint}>
            {errors.channels}
          </p>
        ) : (
          <p className="field-hint" id={channelsHint}>
            Each recipient gets one notification per channel they can be reached on. Only channels the template has content for can be chosen.
          </p>
        )}
      </fieldset>
      <CategorySelect
        label="Category"
        name="category"
        className="composer-field-narrow"
        hint="Its preferences, quiet hours and frequency caps apply to every send, as for any notification."
        value={draft.category}
        onChange={(category) => onChange({ category })}
        error={errors.category}
      />
      <fieldset className="composer-fieldset">
        <legend className="field-label">Lane</legend>
        <div className="composer-options">
          <label className="composer-option">
            <input type="radio" name={laneName} checked={draft.lane === "bulk"} onChange={() => onChange({ lane: "bulk" })} />
            <span>
              <span className="composer-option-title">Bulk</span>
              <span className="composer-option-text">Recommended. Waits behind critical notifications, so password resets are never stuck behind a sale.</span>
            </span>
          </label>
          <label className="composer-option">
            <input type="radio" name={laneName} checked={draft.lane === "critical"} onChange={() => onChange({ lane: "critical" })} />
            <span>
              <span className="composer-option-title">Critical</span>
              <span className="composer-option-text">Goes first and ignores quiet hours. Only for what people must know now.</span>
            </span>
          </label>
        </div>
      </fieldset>
      <fieldset className="composer-fieldset">
        <legend className="field-label">Throttle</legend>
        <label className="checkbox">
          <input type="checkbox" checked={draft.isThrottled} onChange={(event) => onChange({ isThrottled: event.target.checked, throttlePerMinute: draft.throttlePerMinute || "1000" })} />
          Limit how fast it sends
        </label>
        {draft.isThrottled && (
          <TextField
            label="Sends per minute"
            name="throttle"
            type="number"
            min={1}
            step={1}
            className="composer-field-narrow"
            hint="Spreads the load on your servers when people open it, e.g. for a link to your app."
            value={draft.throttlePerMinute}
            onChange={(event) => onChange({ throttlePerMinute: event.target.value })}
            error={errors.throttlePerMinute}
          />
        )}
      </fieldset>
    </div>
  );
}
