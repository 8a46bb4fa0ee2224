import { EmailSchema, PasswordSchema, plainText } from "@herald/core";
import { appendAudit, createFirstMember, hasAnyMember } from "@herald/db";
import { z } from "zod";
import { hashPassword } from "../../auth/password.ts";
import { startSession } from "../../auth/sessions.ts";
import { AppError } from "../../errors.ts";
import { memberView } from "../member-view.ts";
import { procedure, router } from "../trpc.ts";

export const setupRouter = router({
  status: procedure.query(async ({ ctx }) => ({
    needsFirstAdmin: !(await hasAnyMember(ctx.database.prisma)),
    mode: ctx.env.HERALD_MODE,
  })),

  /** One-time: works only while no member exists, and exactly one of concurrent calls wins. */
  createFirstAdmin: procedure
    .input(z.object({ email: EmailSchema, name: plainText(200), password: PasswordSchema }))
    .mutation(async ({ ctx, input }) => {
      const member = await createFirstMember(ctx.database.prisma, {
        email: input.email,
        name: input.name,
        role: "admin",
        passwordHash: await hashPassword(input.password),
      });
      if (!member) throw new AppError("CONFLICT", "Herald already has an admin: sign in instead");
      await appendAudit(ctx.database.prisma, {
        actorMemberId: member.id,
        actor: member.email,
        action: "members.create_first_admin",
        target: member.email,
        ip: ctx.ip,
      });
      await startSession(ctx, member);
      return { member: memberView(member) };
    }),
});
