import type { NotificationTypeInput } from "@herald/core";
import {
  appendAudit,
  deleteNotificationType,
  findNotificationType,
  findPublishedTemplateChannels,
  findUnknownCategories,
  upsertNotificationType,
  type ChannelStep,
  type Database,
  type NotificationTypeRecord,
  type Prisma,
} from "@herald/db";
import { AppError } from "../errors.ts";
import type { ConfigActor } from "./config-actor.ts";

/**
 * Checks what the schema cannot (the categories and published templates a step names exist),
 * then creates or replaces the type, audit-logged with its steps before and after. REST and tRPC
 * both call this, so both refuse the same input with the same words.
 */
export async function saveNotificationType(
  database: Database,
  actor: ConfigActor,
  type: string,
  input: NotificationTypeInput,
): Promise<{ record: NotificationTypeRecord; created: boolean }> {
  await assertStepsResolve(database, input);
  const before = await findNotificationType(database.pool, type);
  const saved = await upsertNotificationType(database.pool, type, input.channels);
  await appendAudit(database.prisma, {
    actorMemberId: actor.memberId,
    actor: actor.label,
    action: saved.created ? "notification_types.create" : "notification_types.update",
    target: type,
    detail: { from: before ? steps(before.channels) : null, to: steps(saved.record.channels) },
    ip: actor.ip,
  });
  return saved;
}

/** Deletes a type; its events are refused as unknown from then on. */
export async function removeNotificationType(database: Database, actor: ConfigActor, type: string): Promise<void> {
  const before = await findNotificationType(database.pool, type);
  if (!before || !(await deleteNotificationType(database.pool, type))) {
    throw new AppError("NOT_FOUND", `There is no notification type "${type}"`, { apiCode: "not_found" });
  }
  await appendAudit(database.prisma, {
    actorMemberId: actor.memberId,
    actor: actor.label,
    action: "notification_types.delete",
    target: type,
    detail: { from: steps(before.channels) },
    ip: actor.ip,
  });
}

async function assertStepsResolve(database: Database, input: NotificationTypeInput): Promise<void> {
  const unknown = await findUnknownCategories(database.pool, input.channels.map((c) => c.category));
  if (unknown.length > 0) {
    throw new AppError(
      "UNPROCESSABLE",
      `Unknown categor${unknown.length > 1 ? "ies" : "y"}: ${unknown.join(", ")} — create it first (PUT /api/v1/categories/:key, or Settings → Categories)`,
      { apiCode: "unknown_category", details: { categories: unknown } },
    );
  }
  const templated = input.channels.filter((c) => c.template !== undefined);
  const published = await findPublishedTemplateChannels(database.pool, templated.map((c) => c.template!));
  for (const step of templated) {
    const channels = published.get(step.template!);
    if (!channels) {
      throw new AppError("UNPROCESSABLE", `Template "${step.template}" does not exist or has no published version: publish it first`, {
        apiCode: "template_not_found",
      });
    }
    if (!channels.includes(step.channel)) {
      throw new AppError("UNPROCESSABLE", `Template "${step.template}" has no ${step.channel} content (it supports ${channels.join(", ")})`, {
        apiCode: "template_not_found",
      });
    }
  }
  const missingSubject = input.channels.findIndex((c) => c.channel === "email" && c.content && !c.content.subject);
  if (missingSubject >= 0) {
    throw new AppError("BAD_REQUEST", "channels: an email step needs content.subject", {
      apiCode: "invalid_request",
      details: { fields: [{ path: `channels.${missingSubject}.content.subject`, message: "an email step needs content.subject" }] },
    });
  }
}

// Steps as stored (jsonb): plain JSON, whatever optional fields the type declares.
function steps(channels: readonly ChannelStep[]): Prisma.InputJsonValue {
  return channels as unknown as Prisma.InputJsonValue;
}
