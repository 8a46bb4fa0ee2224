import { plainText } from "@herald/core";
import { appendAudit, listApiKeys, revokeApiKey, type ApiKeyRecord } from "@herald/db";
import { z } from "zod";
import { createApiKey } from "../../auth/api-keys.ts";
import { AppError } from "../../errors.ts";
import { memberProcedure, router } from "../trpc.ts";

function keyView(k: ApiKeyRecord) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scope: k.scope,
    ratePerMinute: k.ratePerMinute,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
  };
}

export const apiKeysRouter = router({
  list: memberProcedure.query(async ({ ctx }) => ({ keys: (await listApiKeys(ctx.database.pool)).map(keyView) })),

  /** The key itself is returned once, here, and never again: only its hash is stored. */
  create: memberProcedure
    .input(z.object({ name: plainText(200), scope: z.enum(["events", "read", "admin"]), ratePerMinute: z.number().int().min(1).max(1_000_000).nullish() }))
    .mutation(async ({ ctx, input }) => {
      const { key, record } = await createApiKey(ctx.database.pool, {
        name: input.name,
        scope: input.scope,
        ratePerMinute: input.ratePerMinute ?? null,
        createdBy: ctx.member.id,
      });
      await appendAudit(ctx.database.prisma, {
        actorMemberId: ctx.member.id,
        actor: ctx.member.email,
        action: "api_keys.create",
        target: record.prefix,
        detail: { name: record.name, scope: record.scope },
        ip: ctx.ip,
      });
      return { key, apiKey: keyView(record) };
    }),

  revoke: memberProcedure.input(z.object({ id: z.string().regex(/^\d{1,18}$/) })).mutation(async ({ ctx, input }) => {
    const revoked = await revokeApiKey(ctx.database.pool, input.id);
    if (!revoked) throw new AppError("NOT_FOUND", `There is no API key ${input.id}`);
    await appendAudit(ctx.database.prisma, {
      actorMemberId: ctx.member.id,
      actor: ctx.member.email,
      action: "api_keys.revoke",
      target: revoked.prefix,
      ip: ctx.ip,
    });
    return { apiKey: keyView(revoked) };
  }),
});
