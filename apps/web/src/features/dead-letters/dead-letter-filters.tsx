import { useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button.tsx";
import { SelectField, TextField } from "../../components/ui/field.tsx";
import { channelLabel, channels, parseChannel, type Channel } from "../../lib/channels.ts";
import { isFiltered, noFilter, type DeadLetterFilter } from "./dead-letter-filter.ts";

const maxMinutes = 525_600;

/** Edits a draft; the list (and "Replay all matching") only follows once the filter is applied. */
export function DeadLetterFilters({ applied, onApply }: { applied: DeadLetterFilter; onApply: (filter: DeadLetterFilter) => void }) {
  const [channel, setChannel] = useState<Channel | null>(applied.channel);
  const [reason, setReason] = useState(applied.reason ?? "");
  const [olderThan, setOlderThan] = useState(applied.olderThanMinutes?.toString() ?? "");
  const [olderThanError, setOlderThanError] = useState<string | null>(null);

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const minutes = olderThan.trim() === "" ? null : Number(olderThan);
    if (minutes !== null && !(Number.isInteger(minutes) && minutes >= 0 && minutes <= maxMinutes)) {
      setOlderThanError(`Enter whole minutes, up to ${maxMinutes.toLocaleString()} (a year).`);
      return;
    }
    setOlderThanError(null);
    onApply({ channel, reason: reason.trim() || null, olderThanMinutes: minutes });
  }

  function clear() {
    setChannel(null);
    setReason("");
    setOlderThan("");
    setOlderThanError(null);
    onApply(noFilter);
  }

  return (
    <form className="toolbar" onSubmit={apply} role="search" aria-label="Filter dead letters" noValidate>
      <SelectField
        label="Channel"
        name="channel"
        className="toolbar-field-sm"
        value={channel ?? ""}
        onChange={(event) => setChannel(parseChannel(event.target.value))}
      >
        <option value="">All channels</option>
        {channels.map((candidate) => (
          <option key={candidate} value={candidate}>
            {channelLabel(candidate)}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Reason"
        name="reason"
        placeholder="e.g. provider_rejected:"
        autoComplete="off"
        spellCheck={false}
        hint="An exact reason code, or its start ending in “:”."
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <TextField
        label="Older than (minutes)"
        name="older-than-minutes"
        className="toolbar-field-sm"
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        placeholder="Any age"
        value={olderThan}
        onChange={(event) => {
          setOlderThan(event.target.value);
          setOlderThanError(null);
        }}
        error={olderThanError}
      />
      <div className="toolbar-buttons">
        <Button type="submit">Filter</Button>
        {isFiltered(applied) && (
          <Button variant="ghost" onClick={clear}>
            Clear filters
          </Button>
        )}
      </div>
    </form>
  );
}
