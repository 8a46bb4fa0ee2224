import type { InviteRecord, MemberRecord } from "@herald/db";

/** What the browser may see of a member: never the password hash. */
export function memberView(member: MemberRecord) {
  return {
    id: member.id,
    email: member.email,
    name: member.name,
    role: member.role,
    disabled: member.disabledAt !== null,
    createdAt: member.createdAt.toISOString(),
    lastSignInAt: member.lastSignInAt?.toISOString() ?? null,
  };
}

export function inviteView(invite: InviteRecord) {
  return {
    id: invite.id,
    email: invite.email,
    role: invite.role,
    createdAt: invite.createdAt.toISOString(),
    expiresAt: invite.expiresAt.toISOString(),
    invitedBy: invite.invitedBy,
  };
}
