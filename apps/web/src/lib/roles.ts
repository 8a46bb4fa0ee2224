import type { Role } from "./api-types.ts";

/** Every role, most powerful first: the order role pickers list them in. */
export const roles = ["admin", "marketer", "support", "operator", "viewer"] as const satisfies readonly Role[];

const labels: Record<Role, string> = {
  admin: "Admin",
  marketer: "Marketer",
  support: "Support",
  operator: "Operator",
  viewer: "Viewer",
};

export function roleLabel(role: Role): string {
  return labels[role];
}

