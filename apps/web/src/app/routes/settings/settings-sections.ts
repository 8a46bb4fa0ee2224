import type { Capability } from "../../../lib/capabilities.ts";

/** A tab under Settings and the capabilities that open it (any one is enough). */
export type SettingsSection = { path: string; label: string; anyOf: Capability[] };

export const settingsSections: SettingsSection[] = [
  { path: "categories", label: "Categories", anyOf: ["categories.read", "categories.manage"] },
  { path: "notification-types", label: "Notification types", anyOf: ["notificationTypes.read", "notificationTypes.manage"] },
  { path: "providers", label: "Providers", anyOf: ["providers.read", "providers.manage"] },
  { path: "rate-limits", label: "Rate limits and breakers", anyOf: ["providers.read", "settings.read"] },
  { path: "api-keys", label: "API keys", anyOf: ["apiKeys.manage"] },
  { path: "members", label: "Members", anyOf: ["members.manage"] },
  { path: "general", label: "General", anyOf: ["settings.read", "settings.manage"] },
  { path: "audit-log", label: "Audit log", anyOf: ["audit.read"] },
];

/** Whoever holds none of these has no Settings tab to see, so the sidebar hides Settings. */
export const settingsCapabilities: Capability[] = [...new Set(settingsSections.flatMap((section) => section.anyOf))];
