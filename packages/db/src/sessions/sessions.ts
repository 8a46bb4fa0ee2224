import type { Db } from "../client-types.ts";
import { memberFromColumns, type MemberColumns, type MemberRecord } from "../members/members.ts";
import type { Sql } from "../sql.ts";

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

/**
 * The member behind a live session: unknown, expired or disabled-member sessions give null.
 * Every signed-in request asks this, so it is one statement over both primary keys (Prisma's
 * `include` made it two round trips and most of a trivial request's CPU).
 */
export async function findSessionMember(sql: Sql, id: string, now = new Date()): Promise<MemberRecord | null> {
  const { rows } = await sql.query<MemberColumns & { last_seen_at: Date }>(
    `SELECT m.id::text, m.email, m.name, m.role, m.password_hash, m.disabled_at, m.created_at, m.last_sign_in_at, s.last_seen_at
       FROM herald.sessions s JOIN herald.members m ON m.id = s.member_id
      WHERE s.id = $1 AND s.expires_at > $2 AND m.disabled_at IS NULL`,
    [id, now],
  );
  const row = rows[0];
  if (!row) return null;
  // One write a minute at most per session, not one per request.
  if (now.getTime() - row.last_seen_at.getTime() > 60_000) {
    await sql.query("UPDATE herald.sessions SET last_seen_at = $2 WHERE id = $1", [id, now]);
  }
  return memberFromColumns(row);
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.session.deleteMany({ where: { id } });
}

export async function deleteExpiredSessions(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.session.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}
