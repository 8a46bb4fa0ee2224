import {
  ChannelSchema,
  TemplateBodySchema,
  TemplateKeySchema,
  TemplateMetaSchema,
  checkTemplate,
  decideAccess,
  diffTemplates,
  renderTemplate,
  summarizeDiff,
  type TemplateBody,
  type TemplateMeta,
} from "@herald/core";
import {
  appendAudit,
  archiveTemplateVersion,
  createTemplate,
  discardTemplateDraft,
  findTemplate,
  findTemplateVersion,
  findTestDestinations,
  listTemplates,
  listTemplateVersions,
  publishTemplateDraft,
  saveTemplateDraft,
  setTestDestinations,
  startDraftFromVersion,
  updateTemplate,
  type TemplateRecord,
} from "@herald/db";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { previewScope, previewTemplate } from "../../templates/template-preview.ts";
import { sendTemplateTest, testAddress, testMessage } from "../../templates/template-test-send.ts";
import type { Context } from "../context.ts";
import { memberProcedure, router } from "../trpc.ts";

/** A whole draft travels in one request (every locale): bounded well under the tRPC body limit. */
const MAX_BODY_JSON_BYTES = 3 * 1024 * 1024;

const KeyInput = z.object({ key: TemplateKeySchema });
const VersionRef = z.union([z.number().int().min(1), z.literal("draft")]);
const SourceSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("examples") }),
  z.object({ kind: z.literal("user"), userId: z.string().min(1).max(256) }),
]);
const BodyInput = TemplateBodySchema.superRefine((body, ctx) => {
  const bytes = Buffer.byteLength(JSON.stringify(body));
  if (bytes > MAX_BODY_JSON_BYTES) ctx.addIssue({ code: "custom", message: `the whole template must be at most 3 MiB (it is ${(bytes / 1048576).toFixed(1)} MiB)` });
});

function toTemplate(t: TemplateRecord) {
  return { ...t, createdAt: t.createdAt.toISOString(), updatedAt: t.updatedAt.toISOString() };
}

async function requireTemplate(ctx: Context, key: string): Promise<TemplateRecord> {
  const template = await findTemplate(ctx.database.pool, key);
  if (!template) throw new AppError("NOT_FOUND", `There is no template "${key}"`);
  return template;
}

function metaOf(t: TemplateRecord): Pick<TemplateMeta, "channels" | "defaultLocale"> {
  return { channels: t.channels, defaultLocale: t.defaultLocale };
}

async function requireBody(ctx: Context, key: string, version: number | "draft"): Promise<TemplateBody> {
  const found = await findTemplateVersion(ctx.database.pool, key, version);
  if (!found) throw new AppError("NOT_FOUND", version === "draft" ? `Template "${key}" has no draft` : `Template "${key}" has no version ${version}`);
  return TemplateBodySchema.parse(found.body);
}

/** "en · email · html line 3, column 7: …" — one problem as a line of a refusal. */
function describeProblem(p: { message: string; locale?: string; channel?: string; field?: string; line?: number; column?: number }): string {
  const where = [p.locale, p.channel, p.field].filter(Boolean).join(" · ");
  const at = p.line ? ` line ${p.line}, column ${p.column ?? 1}` : "";
  return `${where}${at}${where || at ? ": " : ""}${p.message}`;
}

export const templatesRouter = router({
  list: memberProcedure
    .input(z.object({ search: z.string().max(200).optional(), cursor: TemplateKeySchema.nullish(), limit: z.number().int().min(1).max(100).default(50) }))
    .query(async ({ ctx, input }) => {
      const page = await listTemplates(ctx.database.pool, { search: input.search?.trim() || undefined, after: input.cursor ?? null, limit: input.limit });
      return { items: page.items.map(toTemplate), nextCursor: page.nextCursor };
    }),

  /** A template, its versions (draft first) and its draft's body. */
  get: memberProcedure.input(KeyInput).query(async ({ ctx, input }) => {
    const template = await requireTemplate(ctx, input.key);
    const versions = await listTemplateVersions(ctx.database.pool, input.key);
    const draft = await findTemplateVersion(ctx.database.pool, input.key, "draft");
    return {
      template: toTemplate(template),
      versions: versions.map((v) => ({ ...v, updatedAt: v.updatedAt.toISOString(), publishedAt: v.publishedAt?.toISOString() ?? null })),
      draft: draft ? (draft.body as TemplateBody) : null,
      canEdit: decideAccess(ctx.access, "templates.saveDraft", ctx.member.role) === "allowed",
    };
  }),

  version: memberProcedure.input(KeyInput.extend({ version: VersionRef })).query(async ({ ctx, input }) => {
    const found = await findTemplateVersion(ctx.database.pool, input.key, input.version);
    if (!found) throw new AppError("NOT_FOUND", `Template "${input.key}" has no ${input.version === "draft" ? "draft" : `version ${input.version}`}`);
    return {
      version: found.version,
      status: found.status,
      basedOn: found.basedOn,
      updatedAt: found.updatedAt.toISOString(),
      updatedBy: found.updatedBy,
      publishedAt: found.publishedAt?.toISOString() ?? null,
      publishedBy: found.publishedBy,
      body: found.body as TemplateBody,
    };
  }),

  /** A new template with an empty draft: a skeleton per channel in the default locale. */
  create: memberProcedure.input(TemplateMetaSchema).mutation(async ({ ctx, input }) => {
    const skeleton = {
      ...(input.channels.includes("push") ? { push: { title: "", body: "" } } : {}),
      ...(input.channels.includes("email") ? { email: { subject: "", html: "" } } : {}),
      ...(input.channels.includes("sms") ? { sms: { body: "" } } : {}),
    };
    const created = await createTemplate(ctx.database.pool, {
      ...input,
      memberId: ctx.member.id,
      draft: { variables: [], content: { [input.defaultLocale]: skeleton } },
    }).catch((error: { code?: string }) => {
      if (error.code === "23503") throw new AppError("BAD_REQUEST", `defaultCategory: there is no category "${input.defaultCategory}"`);
      throw error;
    });
    if (!created) throw new AppError("CONFLICT", `A template with the key "${input.key}" already exists`);
    await appendAudit(ctx.database.prisma, { actorMemberId: ctx.member.id, actor: ctx.member.email, action: "templates.create", target: input.key, ip: ctx.ip });
    return { key: input.key };
  }),

  update: memberProcedure
    .input(TemplateMetaSchema.partial().required({ key: true }))
    .mutation(async ({ ctx, input }) => {
      const { key, ...change } = input;
      const updated = await updateMeta(ctx, ctx.member.id, key, change);
      if (!updated) throw new AppError("NOT_FOUND", `There is no template "${key}"`);
      await appendAudit(ctx.database.prisma, { actorMemberId: ctx.member.id, actor: ctx.member.email, action: "templates.update", target: key, detail: change, ip: ctx.ip });
      return { ok: true as const };
    }),

  /**
   * Saves the draft (creating it from the current version's body when there is none). Hard limits
   * refuse the save; Liquid and schema problems come back for the editor, and block only publish.
   */
  saveDraft: memberProcedure.input(KeyInput.extend({ body: BodyInput })).mutation(async ({ ctx, input }) => {
    const template = await requireTemplate(ctx, input.key);
    const saved = await saveTemplateDraft(ctx.database.pool, input.key, input.body, ctx.member.id);
    if (!saved) throw new AppError("NOT_FOUND", `There is no template "${input.key}"`);
    return { savedAt: saved.savedAt.toISOString(), problems: checkTemplate({ meta: metaOf(template), body: input.body }) };
  }),

  /** Starts a draft from a published or archived version. */
  editVersion: memberProcedure
    .input(KeyInput.extend({ version: z.number().int().min(1), replaceDraft: z.boolean().default(false) }))
    .mutation(async ({ ctx, input }) => {
      const outcome = await startDraftFromVersion(ctx.database.pool, input.key, input.version, ctx.member.id, input.replaceDraft);
      if (outcome === "not_found") throw new AppError("NOT_FOUND", `Template "${input.key}" has no version ${input.version}`);
      if (outcome === "draft_exists") throw new AppError("CONFLICT", `Template "${input.key}" already has a draft: publish or discard it first, or replace it`);
      return { ok: true as const };
    }),

  discardDraft: memberProcedure.input(KeyInput).mutation(async ({ ctx, input }) => {
    if (!(await discardTemplateDraft(ctx.database.pool, input.key))) throw new AppError("NOT_FOUND", `Template "${input.key}" has no draft`);
    await appendAudit(ctx.database.prisma, { actorMemberId: ctx.member.id, actor: ctx.member.email, action: "templates.discard_draft", target: input.key, ip: ctx.ip });
    return { ok: true as const };
  }),

  /** Renders the editor's unsaved state for one channel and locale; a mutation, as the body can be large. */
  preview: memberProcedure
    .input(KeyInput.extend({ body: BodyInput, channel: ChannelSchema, locale: z.string().max(64), source: SourceSchema }))
    .mutation(async ({ ctx, input }) => {
      const template = await requireTemplate(ctx, input.key);
      const scope = await previewScope(ctx.database.pool, input.body, input.source);
      return previewTemplate(metaOf(template), input.body, input.channel, input.locale, scope);
    }),

  /** Field-by-field line diff of two versions (or the draft). */
  diff: memberProcedure.input(KeyInput.extend({ from: VersionRef, to: VersionRef })).query(async ({ ctx, input }) => {
    const [from, to] = await Promise.all([requireBody(ctx, input.key, input.from), requireBody(ctx, input.key, input.to)]);
    return { fields: diffTemplates(from, to) };
  }),

  /** Publishes the draft as the next version and makes it current; audit-logged with its diff. */
  publish: memberProcedure.input(KeyInput).mutation(async ({ ctx, input }) => {
    const outcome = await publishTemplateDraft(ctx.database.pool, input.key, ctx.member.id, (draft, meta) => {
      const body = TemplateBodySchema.safeParse(draft);
      if (!body.success) return [{ message: `the draft no longer validates: ${body.error.issues[0]?.message}` }];
      return checkTemplate({ meta: { channels: meta.channels as TemplateMeta["channels"], defaultLocale: meta.defaultLocale }, body: body.data });
    });
    if (outcome.kind === "not_found") throw new AppError("NOT_FOUND", `There is no template "${input.key}"`);
    if (outcome.kind === "no_draft") throw new AppError("BAD_REQUEST", `Template "${input.key}" has no draft to publish`);
    if (outcome.kind === "refused") {
      const problems = outcome.problems as Array<Parameters<typeof describeProblem>[0]>;
      throw new AppError("BAD_REQUEST", `Publish refused, ${problems.length} problem${problems.length > 1 ? "s" : ""}: ${problems.slice(0, 5).map(describeProblem).join("; ")}`, {
        details: { problems },
      });
    }
    const diff = diffTemplates(outcome.previous as TemplateBody | null, outcome.published as TemplateBody);
    await appendAudit(ctx.database.prisma, {
      actorMemberId: ctx.member.id,
      actor: ctx.member.email,
      action: "templates.publish",
      target: `${input.key}@${outcome.version}`,
      detail: { version: outcome.version, diff: summarizeDiff(diff) } as never,
      ip: ctx.ip,
    });
    return { version: outcome.version };
  }),

  archive: memberProcedure.input(KeyInput.extend({ version: z.number().int().min(1) })).mutation(async ({ ctx, input }) => {
    const outcome = await archiveTemplateVersion(ctx.database.pool, input.key, input.version);
    if (outcome === "current") throw new AppError("BAD_REQUEST", `Version ${input.version} is current: publish another version before archiving it`);
    if (outcome === "not_found") throw new AppError("NOT_FOUND", `Template "${input.key}" has no published version ${input.version}`);
    await appendAudit(ctx.database.prisma, {
      actorMemberId: ctx.member.id,
      actor: ctx.member.email,
      action: "templates.archive",
      target: `${input.key}@${input.version}`,
      ip: ctx.ip,
    });
    return { ok: true as const };
  }),

  /** Renders a version (or the draft) and sends it to the signed-in member's own address. */
  sendTest: memberProcedure
    .input(KeyInput.extend({ version: VersionRef, channel: ChannelSchema, locale: z.string().max(64).optional(), source: SourceSchema.default({ kind: "examples" }) }))
    .mutation(async ({ ctx, input }) => {
      const template = await requireTemplate(ctx, input.key);
      const body = await requireBody(ctx, input.key, input.version);
      const destinations = await findTestDestinations(ctx.database.pool, ctx.member.id);
      const address = testAddress(input.channel, destinations!);
      const scope = await previewScope(ctx.database.pool, body, input.source);
      const result = renderTemplate({ body, defaultLocale: template.defaultLocale, channel: input.channel, locale: input.locale ?? null, scope });
      if (!result.ok) throw new AppError("BAD_REQUEST", `Cannot render: ${describeProblem(result.problem)}`);
      const label = `${input.key}@${input.version}`;
      const answer = await sendTemplateTest(ctx.providers, testMessage(input.channel, result.rendered, address, label));
      await appendAudit(ctx.database.prisma, {
        actorMemberId: ctx.member.id,
        actor: ctx.member.email,
        action: "templates.send_test",
        target: label,
        detail: { channel: input.channel, provider: answer.provider, outcome: answer.outcome },
        ip: ctx.ip,
      });
      return answer;
    }),

  testDestinations: memberProcedure.query(async ({ ctx }) => {
    return (await findTestDestinations(ctx.database.pool, ctx.member.id))!;
  }),

  setTestDestinations: memberProcedure
    .input(
      z.object({
        phone: z.string().regex(/^\+[1-9]\d{6,14}$/, "phone: an E.164 number such as +4915112345678").nullable(),
        pushToken: z.string().min(1).max(4096).regex(/^[\x21-\x7e]+$/, "pushToken: a device token has no spaces or control characters").nullable(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await setTestDestinations(ctx.database.pool, ctx.member.id, input);
      return { ok: true as const };
    }),
});

async function updateMeta(ctx: Context, memberId: string, key: string, change: Partial<Omit<TemplateMeta, "key">>): Promise<boolean> {
  return updateTemplate(ctx.database.pool, key, { ...change, memberId }).catch((error: { code?: string }) => {
    if (error.code === "23503") throw new AppError("BAD_REQUEST", `defaultCategory: there is no category "${change.defaultCategory}"`);
    throw error;
  });
}
