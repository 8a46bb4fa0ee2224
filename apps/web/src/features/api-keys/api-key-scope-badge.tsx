import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import type { ApiKeyScope } from "../../lib/api-types.ts";
import { apiKeyScopeGrants, apiKeyScopeLabel } from "./api-key-scopes.ts";

// The wider the scope, the louder the badge: an admin key is the one to keep an eye on.
const tones: Record<ApiKeyScope, BadgeTone> = { events: "neutral", read: "info", admin: "accent" };

export function ApiKeyScopeBadge({ scope }: { scope: ApiKeyScope }) {
  return (
    <Badge tone={tones[scope]} title={`May ${apiKeyScopeGrants(scope)}.`}>
      {apiKeyScopeLabel(scope)}
    </Badge>
  );
}
