/** Capabilities the dashboard checks to hide what the server would refuse anyway. */
export type Capability =
  | "members.manage"
  | "settings.manage"
  | "settings.read"
  | "audit.read"
  | "apiKeys.manage"
  | "deliveries.read"
  | "deliveries.replay"
  | "operations.read"
  | "users.history"
  | "users.read"
  | "preferences.edit"
  | "suppressions.lift"
  | "notifications.resend"
  | "users.erase"
  | "providers.read"
  | "audience.import"
  | "providers.manage"
  | "templates.read"
  | "templates.edit"
  | "broadcasts.read"
  | "broadcasts.send"
  | "analytics.read"
  | "segments.read"
  | "segments.edit"
  | "categories.read"
  | "categories.manage"
  | "notificationTypes.read"
  | "notificationTypes.manage";

export function hasCapability(granted: readonly string[], capability: Capability): boolean {
  return granted.includes(capability);
}
