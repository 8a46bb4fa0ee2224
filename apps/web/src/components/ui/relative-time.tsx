import { formatDateTime, formatRelative } from "../../lib/format-date.ts";

/** "3 minutes ago", with the exact date and time on hover. */
export function RelativeTime({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}
