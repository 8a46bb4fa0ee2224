import { ChannelSchema } from "@herald/core";
import { appendAudit, deleteProviderConfig, listBreakers, listBuckets, listProviderConfigs, upsertProviderConfig } from "@herald/db";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { maskSecret, SecretBox } from "../../providers/credentials/secret-box.ts";
import { environmentSpecs } from "../../providers/live-registry.ts";
import { PROVIDER_KINDS, providerName, type ProviderKind } from "../../providers/provider-kinds.ts";
import { sendTestMessage } from "../../providers/send-test-message.ts";
import { SsrfRefusal, vetOutboundUrl } from "../../providers/webhook/ssrf-guard.ts";
import type { Context } from "../context.ts";
import { memberProcedure, router } from "../trpc.ts";

const RoleSchema = z.enum(["primary", "secondary"]);
const KindSchema = z.enum(["ses", "twilio", "fcm", "webhook"]);

function secretBox(ctx: Context): SecretBox | null {
  return ctx.env.HERALD_SECRET_KEY ? new SecretBox(ctx.env.HERALD_SECRET_KEY) : null;
}

export const providersRouter = router({
  /** Every configured provider with its health; secrets appear masked, never in clear. */
  list: memberProcedure.query(async ({ ctx }) => {
    const box = secretBox(ctx);
    const breakers = new Map((await listBreakers(ctx.database.pool)).map((b) => [b.key, b]));
    const buckets = new Map((await listBuckets(ctx.database.pool)).map((b) => [b.provider, b]));
    const health = (name: string) => ({
      breaker: breakers.get(name)?.state ?? "closed",
      breakerReason: breakers.get(name)?.reason ?? null,
      ratePerSecond: buckets.get(name)?.ratePerSecond ?? null,
      tokens: buckets.get(name)?.tokens ?? null,
    });
    const mask = (secrets: Record<string, string>) => Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, maskSecret(v)]));
    const fromEnv = environmentSpecs(ctx.env).map((s) => ({
      channel: s.channel,
      role: s.role,
      kind: s.kind,
      name: s.name,
      source: "environment" as const,
      settings: s.settings,
      secrets: mask(s.secrets),
      enabled: true,
      ...health(s.name),
    }));
    const fromDashboard = (await listProviderConfigs(ctx.database.pool)).map((c) => {
      let secrets: Record<string, string> = {};
      if (c.secretCiphertext && box) {
        try {
          secrets = mask(JSON.parse(box.open(c.secretCiphertext)) as Record<string, string>);
        } catch {
          secrets = { error: "cannot be opened with this HERALD_SECRET_KEY" };
        }
      }
      const name = providerName(c.kind, c.channel, c.role);
      return { channel: c.channel, role: c.role, kind: c.kind, name, source: "dashboard" as const, settings: c.settings, secrets, enabled: c.enabled, ...health(name) };
    });
    return {
      providers: [...fromEnv, ...fromDashboard],
      secretKeyConfigured: box !== null,
      unconfiguredChannels: ctx.providers.unconfiguredChannels() as string[],
      sandboxFallback: ctx.env.HERALD_MODE === "development",
    };
  }),

  /** Stores a provider; secrets are sealed with HERALD_SECRET_KEY, and refused without it. */
  save: memberProcedure
    .input(
      z.object({
        channel: ChannelSchema,
        role: RoleSchema,
        kind: KindSchema,
        settings: z.record(z.string(), z.unknown()),
        secrets: z.record(z.string(), z.string().max(20_000)).nullish(),
        enabled: z.boolean().default(true),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const kind = PROVIDER_KINDS[input.kind as ProviderKind];
      if (!kind.channels.includes(input.channel)) {
        throw new AppError("BAD_REQUEST", `A ${input.kind} provider cannot serve ${input.channel}`);
      }
      const settings = kind.settings.safeParse(input.settings);
      if (!settings.success) {
        throw new AppError("BAD_REQUEST", `settings: ${settings.error.issues.map((i) => `${i.path.join(".") || "(settings)"}: ${i.message}`).join("; ")}`);
      }
      let sealed: Buffer | null = null;
      if (input.secrets && Object.keys(input.secrets).length > 0) {
        const box = secretBox(ctx);
        if (!box) {
          throw new AppError("BAD_REQUEST", "Herald cannot store secrets until HERALD_SECRET_KEY is set: they are encrypted with it at rest");
        }
        const secrets = kind.secrets.safeParse(input.secrets);
        if (!secrets.success) {
          throw new AppError("BAD_REQUEST", `secrets: ${secrets.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
        }
        sealed = box.seal(JSON.stringify(secrets.data));
      } else {
        const existing = (await listProviderConfigs(ctx.database.pool)).find((c) => c.channel === input.channel && c.role === input.role);
        if (!existing?.secretCiphertext || existing.kind !== input.kind) {
          throw new AppError("BAD_REQUEST", `secrets: a new ${input.kind} provider needs its secrets`);
        }
      }
      if (input.kind === "webhook") {
        const { url, allowedHosts } = settings.data as { url: string; allowedHosts: string[] };
        try {
          await vetOutboundUrl(url, { allowedHosts });
        } catch (error) {
          if (error instanceof SsrfRefusal) throw new AppError("BAD_REQUEST", `settings.url: ${error.message}`);
          throw error;
        }
      }
      await upsertProviderConfig(ctx.database.pool, {
        channel: input.channel,
        role: input.role,
        kind: input.kind,
        settings: settings.data as Record<string, unknown>,
        secretCiphertext: sealed,
        enabled: input.enabled,
        updatedBy: ctx.member.id,
      });
      await appendAudit(ctx.database.prisma, {
        actorMemberId: ctx.member.id,
        actor: ctx.member.email,
        action: "providers.save",
        target: `${input.channel}/${input.role}`,
        // Never the secrets: only which fields were replaced.
        detail: { kind: input.kind, settings: settings.data as Record<string, string>, secretsReplaced: Object.keys(input.secrets ?? {}) },
        ip: ctx.ip,
      });
      await ctx.providers.refresh?.();
      return { ok: true as const };
    }),

  remove: memberProcedure.input(z.object({ channel: ChannelSchema, role: RoleSchema })).mutation(async ({ ctx, input }) => {
    if (!(await deleteProviderConfig(ctx.database.pool, input.channel, input.role))) {
      throw new AppError("NOT_FOUND", `No ${input.role} provider is stored for ${input.channel}`);
    }
    await appendAudit(ctx.database.prisma, {
      actorMemberId: ctx.member.id,
      actor: ctx.member.email,
      action: "providers.remove",
      target: `${input.channel}/${input.role}`,
      ip: ctx.ip,
    });
    await ctx.providers.refresh?.();
    return { ok: true as const };
  }),

  /** Sends one test message through a channel's provider and shows the provider's answer. */
  sendTest: memberProcedure
    .input(z.object({ channel: ChannelSchema, role: RoleSchema.default("primary"), to: z.string().min(3).max(4096) }))
    .mutation(async ({ ctx, input }) => {
      const route = ctx.providers.route(input.channel);
      const provider = input.role === "primary" ? route?.primary : route?.secondary;
      if (!provider) throw new AppError("NOT_FOUND", `No ${input.role} provider serves ${input.channel}`);
      const answer = await sendTestMessage(provider, {
        notificationId: `test-${Date.now()}`,
        channel: input.channel,
        lane: "critical",
        to: input.to,
        ...(input.channel === "push" ? { tokens: [input.to] } : {}),
        subject: "Herald test message",
        title: "Herald test message",
        body: `This is a test message from Herald (${ctx.member.email}).`,
        data: { notification_id: "test" },
      });
      await appendAudit(ctx.database.prisma, {
        actorMemberId: ctx.member.id,
        actor: ctx.member.email,
        action: "providers.send_test",
        target: `${input.channel}/${input.role}`,
        detail: { provider: answer.provider, outcome: answer.outcome },
        ip: ctx.ip,
      });
      return answer;
    }),
});
