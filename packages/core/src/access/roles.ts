import { z } from "zod";

/** Dashboard roles, from most to least powerful. */
export const ROLES = ["admin", "marketer", "support", "operator", "viewer"] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** Anyone, signed in or not. */
export const PUBLIC = "public";
/** Any signed-in, enabled member, whatever their role. */
export const SIGNED_IN = "signed_in";
