import type { Db } from "../client-types.ts";
import type { Prisma } from "../generated/prisma/client.ts";

export interface AuditInput {
  actorMemberId: string | null;
  /** Who acted, in words: a member's email, "cli", "api_key:hk_ab12…". */
  actor: string;
  action: string;
  target?: string | null;
  detail?: Prisma.InputJsonValue;
  ip?: string | null;
}

export interface AuditEntry {
  id: string;
  at: Date;
  actor: string;
  actorMemberId: string | null;
  action: string;
  target: string | null;
  detail: unknown;
}

export async function appendAudit(db: Db, entry: AuditInput): Promise<void> {
  await db.auditEntry.create({
    data: {
      actorMemberId: entry.actorMemberId === null ? null : BigInt(entry.actorMemberId),
      actor: entry.actor,
      action: entry.action,
      target: entry.target ?? null,
      detail: entry.detail ?? {},
      ip: entry.ip ?? null,
    },
  });
}

export interface AuditPage {
  items: AuditEntry[];
  nextCursor: string | null;
}

/** What the audit log can be narrowed to; every filter is optional and they combine. */
export interface AuditFilter {
  /** An action, or the start of one ("categories." matches every category change). */
  action?: string | null;
  actorMemberId?: string | null;
  /** Entries at or after this instant. */
  from?: Date | null;
  /** Entries before this instant. */
  to?: Date | null;
}

/** Newest first, keyset-paged on the id (insertion order), so a page never shifts when new rows arrive. */
export async function listAudit(db: Db, options: AuditFilter & { cursor?: string | null; limit: number }): Promise<AuditPage> {
  const before = options.cursor && /^\d{1,18}$/.test(options.cursor) ? BigInt(options.cursor) : null;
  const rows = await db.auditEntry.findMany({
    where: {
      ...(options.action ? { action: { startsWith: options.action } } : {}),
      ...(options.actorMemberId ? { actorMemberId: BigInt(options.actorMemberId) } : {}),
      ...(options.from || options.to ? { at: { ...(options.from ? { gte: options.from } : {}), ...(options.to ? { lt: options.to } : {}) } } : {}),
      ...(before !== null ? { id: { lt: before } } : {}),
    },
    orderBy: { id: "desc" },
    take: options.limit + 1,
  });
  const items = rows.slice(0, options.limit).map((r) => ({
    id: r.id.toString(),
    at: r.at,
    actor: r.actor,
    actorMemberId: r.actorMemberId?.toString() ?? null,
    action: r.action,
    target: r.target,
    detail: r.detail,
  }));
  const last = items.at(-1);
  return { items, nextCursor: rows.length > options.limit && last ? last.id : null };
}

/** Every action the log holds, for the filter's choices (a few dozen names, however long the log). */
export async function listAuditActions(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ action: string }>>`SELECT DISTINCT action FROM herald.audit_log ORDER BY action`;
  return rows.map((r) => r.action);
}
