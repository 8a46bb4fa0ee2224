import { useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button.tsx";
import { SelectField, TextField } from "../../components/ui/field.tsx";
import { channelLabel, channels, parseChannel, type Channel } from "../../lib/channels.ts";

/** The outbox's filters; `to` matches a recipient exactly, as the server compares it. */
export type OutboxFilter = { to: string | null; channel: Channel | null };

export const noOutboxFilter: OutboxFilter = { to: null, channel: null };

export function SandboxOutboxFilters({ applied, onApply }: { applied: OutboxFilter; onApply: (filter: OutboxFilter) => void }) {
  const [to, setTo] = useState(applied.to ?? "");
  const [channel, setChannel] = useState<Channel | null>(applied.channel);
  const filtered = applied.to !== null || applied.channel !== null;

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onApply({ to: to.trim() || null, channel });
  }

  function clear() {
    setTo("");
    setChannel(null);
    onApply(noOutboxFilter);
  }

  return (
    <form className="toolbar" onSubmit={apply} role="search" aria-label="Filter the sandbox outbox" noValidate>
      <TextField
        label="Recipient"
        name="to"
        placeholder="e.g. bounce@simulator.amazonses.com"
        autoComplete="off"
        spellCheck={false}
        hint="The exact email address, phone number or device token."
        value={to}
        onChange={(event) => setTo(event.target.value)}
      />
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
      <div className="toolbar-buttons">
        <Button type="submit">Filter</Button>
        {filtered && (
          <Button variant="ghost" onClick={clear}>
            Clear filters
          </Button>
        )}
      </div>
    </form>
  );
}
