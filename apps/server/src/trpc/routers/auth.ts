import { EmailSchema, PasswordSchema, capabilitiesOf, plainText } from "@herald/core";
import { acceptInvite, appendAudit, findUsableInvite } from "@herald/db";
import { z } from "zod";
import { hashPassword } from "../../auth/password.ts";
import { signIn, signOut, startSession } from "../../auth/sessions.ts";
import { hashToken } from "../../auth/tokens.ts";
import { AppError } from "../../errors.ts";
import { memberView } from "../member-view.ts";
import { procedure, router } from "../trpc.ts";

const InviteTokenSchema = z.string().min(20).max(200).regex(/^[A-Za-z0-9_-]+$/, "is not an invite token");

export const authRouter = router({
  me: procedure.query(({ ctx }) => ({
    member: ctx.member ? memberView(ctx.member) : null,
    capabilities: ctx.member ? capabilitiesOf(ctx.access, ctx.member.role) : [],
  })),

  signIn: procedure
    .input(z.object({ email: EmailSchema, password: z.string().min(1).max(1024) }))
    .mutation(async ({ ctx, input }) => ({ member: memberView(await signIn(ctx, input.email, input.password)) })),

  signOut: procedure.mutation(async ({ ctx }) => {
    if (ctx.member) {
      await appendAudit(ctx.database.prisma, { actorMemberId: ctx.member.id, actor: ctx.member.email, action: "auth.sign_out", ip: ctx.ip });
    }
    await signOut(ctx);
    return { ok: true as const };
  }),

  inviteInfo: procedure.input(z.object({ token: InviteTokenSchema })).query(async ({ ctx, input }) => {
    const invite = await findUsableInvite(ctx.database.prisma, hashToken(input.token));
    if (!invite) throw new AppError("NOT_FOUND", "This invite link is unknown, used, revoked or expired. Ask an admin for a new one.");
    return { email: invite.email, role: invite.role };
  }),

  acceptInvite: procedure
    .input(z.object({ token: InviteTokenSchema, name: plainText(200), password: PasswordSchema }))
    .mutation(async ({ ctx, input }) => {
      const result = await acceptInvite(ctx.database.prisma, {
        tokenHash: hashToken(input.token),
        name: input.name,
        passwordHash: await hashPassword(input.password),
      });
      if (result.kind === "unusable") {
        throw new AppError("NOT_FOUND", "This invite link is unknown, used, revoked or expired. Ask an admin for a new one.");
      }
      if (result.kind === "email_taken") throw new AppError("CONFLICT", "A member with this email already exists: sign in instead");
      await appendAudit(ctx.database.prisma, {
        actorMemberId: result.member.id,
        actor: result.member.email,
        action: "members.accept_invite",
        target: result.member.email,
        detail: { role: result.member.role },
        ip: ctx.ip,
      });
      await startSession(ctx, result.member);
      return { member: memberView(result.member) };
    }),
});
