/** The audit log's filters as the form holds them: dates are the member's local calendar days. */
export type AuditFilterDraft = { memberId: string; action: string; fromDay: string; toDay: string };

export const noFilter: AuditFilterDraft = { memberId: "", action: "", fromDay: "", toDay: "" };

/**
 * What `audit.list` is sent: "from" is the start of the first day, "to" the start of the day after
 * the last one, both in the browser's time zone, so a one-day range covers that whole day.
 */
export function auditQueryInput(filter: AuditFilterDraft) {
  return {
    ...(filter.memberId ? { memberId: filter.memberId } : {}),
    ...(filter.action ? { action: filter.action } : {}),
    ...(filter.fromDay ? { from: startOfDay(filter.fromDay, 0) } : {}),
    ...(filter.toDay ? { to: startOfDay(filter.toDay, 1) } : {}),
  };
}

export function isFiltered(filter: AuditFilterDraft): boolean {
  return Object.values(filter).some(Boolean);
}

/** "2026-11-30" → that day's local midnight (plus `addDays`) as an ISO instant. */
function startOfDay(day: string, addDays: number): string {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(year!, month! - 1, date! + addDays).toISOString();
}
