import { EmailSchema, RoleSchema } from "@herald/core";
import {
  appendAudit,
  countActiveAdmins,
  createInvite,
  findMemberByEmail,
  findMemberById,
  listMembers,
  listPendingInvites,
  revokeInvite,
  setMemberDisabled,
  setMemberRole,
  type MemberRecord,
} from "@herald/db";
import { z } from "zod";
import { hashToken, newToken } from "../../auth/tokens.ts";
import { AppError } from "../../errors.ts";
import { getSetting } from "../../settings/settings-service.ts";
import type { Context } from "../context.ts";
import { inviteView, memberView } from "../member-view.ts";
import { memberProcedure, router } from "../trpc.ts";

const IdSchema = z.string().regex(/^\d{1,18}$/, "must be an id");

async function getMember(ctx: Context, id: string): Promise<MemberRecord> {
  const member = await findMemberById(ctx.database.prisma, id);
  if (!member) throw new AppError("NOT_FOUND", `There is no member ${id}`);
  return member;
}

/** Herald must always keep one enabled admin, or nobody could manage members again. */
async function assertNotLastAdmin(ctx: Context, member: MemberRecord): Promise<void> {
  if (member.role === "admin" && !member.disabledAt && (await countActiveAdmins(ctx.database.prisma)) <= 1) {
    throw new AppError("CONFLICT", "This is the only enabled admin: make someone else admin first");
  }
}

export const membersRouter = router({
  list: memberProcedure.query(async ({ ctx }) => ({
    members: (await listMembers(ctx.database.prisma)).map(memberView),
    invites: (await listPendingInvites(ctx.database.prisma)).map(inviteView),
  })),

  invite: memberProcedure.input(z.object({ email: EmailSchema, role: RoleSchema })).mutation(async ({ ctx, input }) => {
    if (await findMemberByEmail(ctx.database.prisma, input.email)) {
      throw new AppError("CONFLICT", `${input.email} is already a member`);
    }
    const ttlHours = await getSetting<number>(ctx.database, ctx.env, "auth.inviteTtlHours");
    const token = newToken();
    const invite = await ctx.database.prisma.$transaction(async (tx) => {
      const created = await createInvite(tx, {
        email: input.email,
        role: input.role,
        tokenHash: hashToken(token),
        invitedBy: ctx.member.id,
        expiresAt: new Date(Date.now() + ttlHours * 3_600_000),
      });
      await appendAudit(tx, {
        actorMemberId: ctx.member.id,
        actor: ctx.member.email,
        action: "members.invite",
        target: input.email,
        detail: { role: input.role },
        ip: ctx.ip,
      });
      return created;
    });
    return { invite: inviteView(invite), url: new URL(`/invite/${token}`, ctx.env.publicUrl).toString() };
  }),

  revokeInvite: memberProcedure.input(z.object({ inviteId: IdSchema })).mutation(async ({ ctx, input }) => {
    if (!(await revokeInvite(ctx.database.prisma, input.inviteId))) {
      throw new AppError("NOT_FOUND", "This invite is unknown or already used");
    }
    await appendAudit(ctx.database.prisma, {
      actorMemberId: ctx.member.id,
      actor: ctx.member.email,
      action: "members.revoke_invite",
      target: input.inviteId,
      ip: ctx.ip,
    });
    return { ok: true as const };
  }),

  setRole: memberProcedure.input(z.object({ memberId: IdSchema, role: RoleSchema })).mutation(async ({ ctx, input }) => {
    const member = await getMember(ctx, input.memberId);
    if (member.role === input.role) return { member: memberView(member) };
    if (input.role !== "admin") await assertNotLastAdmin(ctx, member);
    const updated = await setMemberRole(ctx.database.prisma, member.id, input.role);
    await appendAudit(ctx.database.prisma, {
      actorMemberId: ctx.member.id,
      actor: ctx.member.email,
      action: "members.set_role",
      target: member.email,
      detail: { from: member.role, to: input.role },
      ip: ctx.ip,
    });
    return { member: memberView(updated) };
  }),

  setDisabled: memberProcedure
    .input(z.object({ memberId: IdSchema, disabled: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const member = await getMember(ctx, input.memberId);
      if (input.disabled) await assertNotLastAdmin(ctx, member);
      const updated = await setMemberDisabled(ctx.database.prisma, member.id, input.disabled);
      await appendAudit(ctx.database.prisma, {
        actorMemberId: ctx.member.id,
        actor: ctx.member.email,
        action: input.disabled ? "members.disable" : "members.enable",
        target: member.email,
        ip: ctx.ip,
      });
      return { member: memberView(updated) };
    }),
});
