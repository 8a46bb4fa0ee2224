/** The workspace settings the Rate limits and breakers page shows, instead of General. */
export function isRateLimitSetting(key: string): boolean {
  return key.startsWith("providers.") || key === "dispatch.outboxBacklogLimit";
}
