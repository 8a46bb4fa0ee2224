import { randomBytes } from "node:crypto";
import { checkTemplate, SEGMENT_PRESETS, TemplateBodySchema, type Rule, type TemplateMeta } from "@herald/core";
import {
  appendAudit,
  createMember,
  createSegment,
  createTemplate,
  findMemberByEmail,
  publishTemplateDraft,
  saveTemplateDraft,
  setMemberPassword,
  upsertCategory,
  upsertNotificationType,
  type Database,
} from "@herald/db";
import type pg from "pg";
import { hashPassword } from "../auth/password.ts";
import { DEMO_CATEGORIES, DEMO_TEMPLATES, DEMO_TYPES } from "./catalogue.ts";

export const DEMO_ADMIN_EMAIL = "demo@herald.local";

/**
 * The demo's admin: created, or given a fresh password when a previous demo left it. The
 * password is random and printed once; it is never stored in the clear.
 */
export async function ensureDemoAdmin(database: Database): Promise<{ memberId: string; email: string; password: string }> {
  const password = randomBytes(12).toString("base64url");
  const passwordHash = await hashPassword(password);
  const existing = await findMemberByEmail(database.prisma, DEMO_ADMIN_EMAIL);
  if (existing) {
    await setMemberPassword(database.prisma, existing.id, passwordHash);
    return { memberId: existing.id, email: DEMO_ADMIN_EMAIL, password };
  }
  const member = await createMember(database.prisma, { email: DEMO_ADMIN_EMAIL, name: "Demo Admin", role: "admin", passwordHash });
  await appendAudit(database.prisma, { actorMemberId: null, actor: "cli", action: "members.create", target: member.email, detail: { role: member.role, via: "demo" } });
  return { memberId: member.id, email: DEMO_ADMIN_EMAIL, password };
}

/** Categories, notification types and every template's first published version. */
export async function createCatalogue(pool: pg.Pool, memberId: string): Promise<void> {
  for (const { key, input } of DEMO_CATEGORIES) {
    const result = await upsertCategory(pool, key, input);
    if (result.kind !== "ok") throw new Error(`demo category ${key}: alias ${result.alias} belongs to ${result.owner}`);
  }
  for (const t of DEMO_TEMPLATES) {
    const created = await createTemplate(pool, {
      key: t.key,
      name: t.name,
      channels: t.channels,
      defaultCategory: t.category,
      defaultLocale: "en",
      memberId,
      draft: { variables: t.variables, content: t.versions[0] },
    });
    if (!created) throw new Error(`demo template ${t.key} exists already`);
    await publish(pool, t.key, memberId);
  }
  for (const { type, steps } of DEMO_TYPES) await upsertNotificationType(pool, type, steps);
}

/** Publishes each named template's second version: what is pinned from then on changes. */
export async function publishSecondVersions(pool: pg.Pool, keys: readonly string[], memberId: string): Promise<void> {
  for (const key of keys) {
    const t = DEMO_TEMPLATES.find((x) => x.key === key)!;
    await saveTemplateDraft(pool, key, { variables: t.variables, content: t.versions[1] }, memberId);
    await publish(pool, key, memberId);
  }
}

/** The same checks the dashboard's publish runs: a demo template that would not publish there fails here. */
async function publish(pool: pg.Pool, key: string, memberId: string): Promise<void> {
  const outcome = await publishTemplateDraft(pool, key, memberId, (draft, meta) => {
    const body = TemplateBodySchema.safeParse(draft);
    if (!body.success) return [{ message: body.error.issues[0]?.message }];
    return checkTemplate({ meta: { channels: meta.channels as TemplateMeta["channels"], defaultLocale: meta.defaultLocale }, body: body.data });
  });
  if (outcome.kind !== "published") throw new Error(`demo template ${key} did not publish: ${JSON.stringify(outcome)}`);
}

/** The presets as saved segments, plus the ones the demo's broadcasts target. Ids by key. */
export async function createSegments(pool: pg.Pool, memberId: string): Promise<Record<string, string>> {
  const segments: Array<{ key: string; name: string; description: string; rule: Rule }> = [
    ...SEGMENT_PRESETS.map((p) => ({ key: p.key, name: p.name, description: p.description, rule: p.rule })),
    {
      key: "free_with_email",
      name: "Free plan, reachable by email",
      description: "Everyone on the free plan with an email address that is not suppressed.",
      rule: { kind: "and", children: [{ kind: "attribute", attribute: "plan", op: "eq", value: "free" }, { kind: "has_email" }, { kind: "not_suppressed", channel: "email" }] },
    },
  ];
  const ids: Record<string, string> = {};
  for (const s of segments) {
    const outcome = await createSegment(pool, { name: s.name, description: s.description, rule: s.rule, memberId });
    if (outcome.kind !== "saved") throw new Error(`demo segment ${s.name}: ${outcome.kind}`);
    ids[s.key] = outcome.id;
  }
  return ids;
}
