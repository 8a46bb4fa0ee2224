import { CategoryKeySchema, ChannelSchema, ExternalIdSchema, LaneSchema, NotificationTypeKeySchema, plainText } from "@herald/core";
import {
  appendAudit,
  eraseUser,
  findNotificationType,
  findUser,
  findUsers,
  getPreferenceMatrix,
  liftSuppression,
  listCategories,
  listDevices,
  listNotificationTypes,
  listQuietHours,
  listUserSuppressions,
  resetPreference,
  setPreferences,
  type Prisma,
  type UserRecord,
} from "@herald/db";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { explainForUser } from "../../users/explain-user.ts";
import type { Context } from "../context.ts";
import { memberProcedure, router } from "../trpc.ts";

type MemberContext = Context & { member: { id: string; email: string } };

async function requireUser(ctx: Context, userId: string): Promise<UserRecord> {
  const user = await findUser(ctx.database.pool, userId);
  if (!user) throw new AppError("NOT_FOUND", `No user has the id ${JSON.stringify(userId)}`);
  return user;
}

async function audit(ctx: MemberContext, action: string, userId: string, detail: Prisma.InputJsonObject) {
  await appendAudit(ctx.database.prisma, { actorMemberId: ctx.member.id, actor: ctx.member.email, action, target: `user:${userId}`, detail, ip: ctx.ip });
}

const ReasonTextSchema = plainText(500).refine((text) => text.length >= 3, "say why, in at least 3 characters");

const ExplainInputSchema = z.object({
  userId: ExternalIdSchema,
  subject: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("type"), type: NotificationTypeKeySchema }),
    z.object({ kind: z.literal("category"), category: CategoryKeySchema, channel: ChannelSchema, lane: LaneSchema.default("bulk") }),
  ]),
});

export const usersRouter = router({
  /** Users whose id, email or phone starts with what support typed; for the search box, as they type. */
  search: memberProcedure
    .input(z.object({ query: z.string().trim().min(1, "type at least one character").max(320), limit: z.number().int().min(1).max(50).default(10) }))
    .query(async ({ ctx, input }) => ({ items: await findUsers(ctx.database.pool, input.query, input.limit) })),

  /** Everything the user page shows above the timeline. */
  get: memberProcedure.input(z.object({ userId: ExternalIdSchema })).query(async ({ ctx, input }) => {
    const user = await requireUser(ctx, input.userId);
    const sql = ctx.database.pool;
    const [devices, preferences, suppressions, quietHours, categories, types] = await Promise.all([
      listDevices(sql, input.userId),
      getPreferenceMatrix(sql, input.userId),
      listUserSuppressions(sql, input.userId),
      listQuietHours(sql, user.id),
      listCategories(sql),
      listNotificationTypes(sql),
    ]);
    const { id: _internal, ...profile } = user;
    return {
      user: profile,
      devices,
      preferences,
      suppressions,
      quietHours,
      categories: categories.map((c) => ({ key: c.key, label: c.label, mandatory: c.mandatory, defaults: c.defaults })),
      notificationTypes: types.map((t) => t.type),
    };
  }),

  /** What would happen, gate by gate, if a notification type (or a category on a channel) were sent to this user now. */
  explain: memberProcedure.input(ExplainInputSchema).query(async ({ ctx, input }) => {
    const user = await requireUser(ctx, input.userId);
    let steps;
    if (input.subject.kind === "type") {
      const type = await findNotificationType(ctx.database.pool, input.subject.type);
      if (!type) throw new AppError("NOT_FOUND", `No notification type is called ${JSON.stringify(input.subject.type)}`);
      steps = type.channels.map((s) => ({ channel: s.channel, category: s.category, lane: s.lane ?? "bulk" }));
    } else {
      steps = [{ channel: input.subject.channel, category: input.subject.category, lane: input.subject.lane }];
    }
    const settings = await ctx.settings.get();
    const now = new Date();
    const explanations = await explainForUser(
      { sql: ctx.database.pool, providers: ctx.providers, defaultTimezone: settings.get("workspace.defaultTimezone") as string, now },
      user,
      steps,
    );
    return { at: now.toISOString(), explanations };
  }),

  /** Sets one cell of the preference matrix as support (`enabled: null` forgets the choice: the default applies). Audit-logged. */
  setPreference: memberProcedure
    .input(z.object({ userId: ExternalIdSchema, category: CategoryKeySchema, channel: ChannelSchema, enabled: z.boolean().nullable() }))
    .mutation(async ({ ctx, input }) => {
      await requireUser(ctx, input.userId);
      const sql = ctx.database.pool;
      const before = (await getPreferenceMatrix(sql, input.userId)).find((p) => p.category === input.category && p.channel === input.channel);
      if (!before) throw new AppError("NOT_FOUND", `No category is called ${JSON.stringify(input.category)}`);
      if (input.enabled === null) {
        await resetPreference(sql, input.userId, input.category, input.channel);
      } else {
        const result = await setPreferences(sql, input.userId, [{ category: input.category, channel: input.channel, enabled: input.enabled }], "support");
        if (result.kind === "mandatory_category") {
          throw new AppError("CONFLICT", `${input.category} is mandatory: it cannot be switched off`);
        }
        if (result.kind === "unknown_category") throw new AppError("NOT_FOUND", `No category is called ${JSON.stringify(input.category)}`);
      }
      const after = (await getPreferenceMatrix(sql, input.userId)).find((p) => p.category === input.category && p.channel === input.channel)!;
      await audit(ctx, "users.set_preference", input.userId, {
        category: input.category,
        channel: input.channel,
        before: { enabled: before.enabled, source: before.source },
        after: { enabled: after.enabled, source: after.source },
      });
      return after;
    }),

  /**
   * Erases the user (right to be forgotten): docs/data-lifecycle.md says what goes, what is
   * anonymised and what stays. The admin types the user's id again to confirm. Audit-logged by
   * the erasure itself, without the person's data.
   */
  erase: memberProcedure
    .input(z.object({ userId: ExternalIdSchema, confirmation: z.string().max(256) }))
    .mutation(async ({ ctx, input }) => {
      if (input.confirmation !== input.userId) {
        throw new AppError("BAD_REQUEST", `confirmation: type the user's id (${input.userId}) to erase them`);
      }
      const summary = await eraseUser(ctx.database.pool, input.userId, { memberId: ctx.member.id, actor: ctx.member.email, ip: ctx.ip ?? null });
      if (!summary) throw new AppError("NOT_FOUND", `No user has the id ${JSON.stringify(input.userId)}: already erased, or never known`);
      return summary;
    }),

  /** Lifts a suppression of one of this user's addresses, with the reason support gave. Audit-logged. */
  liftSuppression: memberProcedure
    .input(z.object({ userId: ExternalIdSchema, channel: ChannelSchema, address: z.string().min(1).max(4096), reason: ReasonTextSchema }))
    .mutation(async ({ ctx, input }) => {
      await requireUser(ctx, input.userId);
      const sql = ctx.database.pool;
      // Only an address the user owns: support must not lift someone else's suppression by naming it.
      const suppression = (await listUserSuppressions(sql, input.userId)).find((s) => s.channel === input.channel && s.address === input.address);
      if (!suppression) throw new AppError("NOT_FOUND", `${input.userId} has no suppressed ${input.channel} address ${JSON.stringify(input.address)}`);
      const lifted = await liftSuppression(sql, suppression);
      if (!lifted) throw new AppError("CONFLICT", "That suppression changed meanwhile: reload and try again");
      await audit(ctx, "users.lift_suppression", input.userId, {
        channel: suppression.channel,
        address: suppression.address,
        suppressedFor: suppression.reason,
        suppressedBy: suppression.source,
        suppressedAt: suppression.createdAt.toISOString(),
        reason: input.reason,
      });
      return { lifted: true };
    }),
});
