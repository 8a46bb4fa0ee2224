import type { ApiKeyScope } from "../../lib/api-types.ts";

/** Narrowest first: the order the scope picker lists them, and the order they nest in. */
export const apiKeyScopes = ["events", "read", "admin"] as const satisfies readonly ApiKeyScope[];

const labels: Record<ApiKeyScope, string> = { events: "Events", read: "Read", admin: "Admin" };

// What each scope adds to the one before it; the REST routes' requireScope calls are the truth.
const grants: Record<ApiKeyScope, string> = {
  events: "post events and keep users, devices and preferences up to date",
  read: "everything Events can, plus read notifications and the sandbox outbox",
  admin: "everything Read can, plus configure categories and notification types",
};

export function apiKeyScopeLabel(scope: ApiKeyScope): string {
  return labels[scope];
}

export function apiKeyScopeGrants(scope: ApiKeyScope): string {
  return grants[scope];
}

export function parseApiKeyScope(value: string): ApiKeyScope | null {
  return apiKeyScopes.find((scope) => scope === value) ?? null;
}
