import { Button } from "../../components/ui/button.tsx";
import { SelectField, TextField } from "../../components/ui/field.tsx";
import { channelLabel, channels, parseChannel, type Channel } from "../../lib/channels.ts";
import { notificationStatuses, type NotificationStatus } from "../../lib/notification-statuses.ts";

/** What the timeline shows: every field narrows it; empty means "any". Dates are local calendar days. */
export interface TimelineFilter {
  channel: Channel | null;
  type: string;
  status: NotificationStatus | null;
  fromDay: string;
  toDay: string;
}

export const emptyTimelineFilter: TimelineFilter = { channel: null, type: "", status: null, fromDay: "", toDay: "" };

/** The server's input: `to` is exclusive, so a "to" day includes the whole of that day. */
export function timelineQueryInput(filter: TimelineFilter) {
  const startOf = (day: string) => new Date(`${day}T00:00:00`);
  const dayAfter = (day: string) => {
    const date = startOf(day);
    date.setDate(date.getDate() + 1);
    return date;
  };
  return {
    channel: filter.channel,
    type: filter.type || null,
    status: filter.status,
    from: filter.fromDay ? startOf(filter.fromDay).toISOString() : null,
    to: filter.toDay ? dayAfter(filter.toDay).toISOString() : null,
  };
}

export function isFiltered(filter: TimelineFilter): boolean {
  return filter.channel !== null || filter.type !== "" || filter.status !== null || filter.fromDay !== "" || filter.toDay !== "";
}

/** Channel, type, status and a date range over a user's timeline. */
export function TimelineFilters({ filter, types, onChange }: { filter: TimelineFilter; types: string[]; onChange: (next: TimelineFilter) => void }) {
  const rangeError = filter.fromDay && filter.toDay && filter.toDay < filter.fromDay ? "The end is before the start." : null;
  return (
    <div className="toolbar timeline-filters" role="group" aria-label="Filter the timeline">
      <SelectField label="Channel" value={filter.channel ?? ""} onChange={(e) => onChange({ ...filter, channel: parseChannel(e.target.value) })}>
        <option value="">Any channel</option>
        {channels.map((c) => (
          <option key={c} value={c}>
            {channelLabel(c)}
          </option>
        ))}
      </SelectField>
      <SelectField label="Type" value={filter.type} onChange={(e) => onChange({ ...filter, type: e.target.value })}>
        <option value="">Any type</option>
        {types.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Status"
        value={filter.status ?? ""}
        onChange={(e) => onChange({ ...filter, status: notificationStatuses.find((s) => s === e.target.value) ?? null })}
      >
        <option value="">Any status</option>
        {notificationStatuses.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </SelectField>
      <TextField label="From" type="date" value={filter.fromDay} onChange={(e) => onChange({ ...filter, fromDay: e.target.value })} />
      <TextField label="To" type="date" value={filter.toDay} error={rangeError} onChange={(e) => onChange({ ...filter, toDay: e.target.value })} />
      {isFiltered(filter) && (
        <Button size="sm" className="form-inline-submit" onClick={() => onChange(emptyTimelineFilter)}>
          Clear filters
        </Button>
      )}
    </div>
  );
}
