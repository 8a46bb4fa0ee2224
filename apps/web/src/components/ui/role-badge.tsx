import type { Role } from "../../lib/api-types.ts";
import { roleLabel } from "../../lib/roles.ts";
import { Badge, type BadgeTone } from "./badge.tsx";

const tones: Record<Role, BadgeTone> = {
  admin: "accent",
  marketer: "info",
  support: "success",
  operator: "warning",
  viewer: "neutral",
};

export function RoleBadge({ role }: { role: Role }) {
  return <Badge tone={tones[role]}>{roleLabel(role)}</Badge>;
}
