import type { Db } from "../client-types.ts";
import { toMemberRecord, type MemberRecord } from "../members/members.ts";

export interface NewSession {
  /** SHA-256 of the cookie's token: the token itself is never stored. */
  id: string;
  memberId: string;
  expiresAt: Date;
  userAgent: string | null;
  ip: string | null;
}

export async function createSession(db: Db, session: NewSession): Promise<void> {
  await db.session.create({ data: { ...session, memberId: BigInt(session.memberId) } });
}

/** The member behind a live session: unknown, expired or disabled-member sessions give null. */
export async function findSessionMember(db: Db, id: string, now = new Date()): Promise<MemberRecord | null> {
  const row = await db.session.findFirst({
    where: { id, expiresAt: { gt: now }, member: { disabledAt: null } },
    include: { member: true },
  });
  if (!row) return null;
  // One write a minute at most per session, not one per request.
  if (now.getTime() - row.lastSeenAt.getTime() > 60_000) {
    await db.session.updateMany({ where: { id }, data: { lastSeenAt: now } });
  }
  return toMemberRecord(row.member);
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.session.deleteMany({ where: { id } });
}

export async function deleteExpiredSessions(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.session.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}
