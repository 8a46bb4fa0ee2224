import type { MemberRecord } from "@herald/db";
import type { ConfigActor } from "../../config/config-actor.ts";

/** The signed-in member as the audit log names them. */
export function configActor(ctx: { member: MemberRecord; ip: string | null }): ConfigActor {
  return { memberId: ctx.member.id, label: ctx.member.email, ip: ctx.ip };
}
