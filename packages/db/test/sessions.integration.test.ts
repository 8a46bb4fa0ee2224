import { describe, expect, it } from "vitest";
import { createMember } from "../src/members/members.ts";
import { createSession, findSessionMember } from "../src/sessions/sessions.ts";
import { useTestDatabase } from "./support/test-database.ts";

describe("findSessionMember", () => {
  const test = useTestDatabase();
  let counter = 0;

  async function memberWithSession(options: { expiresInMs?: number; disabled?: boolean } = {}) {
    counter += 1;
    const member = await createMember(test.db.prisma, { email: `m${counter}@example.com`, name: `M ${counter}`, role: "support", passwordHash: "x" });
    if (options.disabled) await test.db.pool.query("UPDATE herald.members SET disabled_at = now() WHERE id = $1", [member.id]);
    const id = `session-${counter}`;
    await createSession(test.db.prisma, { id, memberId: member.id, expiresAt: new Date(Date.now() + (options.expiresInMs ?? 3_600_000)), userAgent: null, ip: null });
    return { member, id };
  }

  const lastSeen = async (id: string) =>
    (await test.db.pool.query<{ last_seen_at: Date }>("SELECT last_seen_at FROM herald.sessions WHERE id = $1", [id])).rows[0]!.last_seen_at;

  it("answers a live session with its member, as the members table holds them", async () => {
    const { member, id } = await memberWithSession();
    const { id: memberId, email, name, role, passwordHash, disabledAt, createdAt, lastSignInAt } = member;
    expect(await findSessionMember(test.db.pool, id)).toEqual({ id: memberId, email, name, role, passwordHash, disabledAt, createdAt, lastSignInAt });
  });

  it("answers null for an unknown session, an expired one and a disabled member's", async () => {
    const expired = await memberWithSession({ expiresInMs: -1000 });
    const disabled = await memberWithSession({ disabled: true });
    expect(await findSessionMember(test.db.pool, "no-such-session")).toBeNull();
    expect(await findSessionMember(test.db.pool, expired.id)).toBeNull();
    expect(await findSessionMember(test.db.pool, disabled.id)).toBeNull();
  });

  it("records the session as seen at most once a minute", async () => {
    const { id } = await memberWithSession();
    const created = await lastSeen(id);
    await findSessionMember(test.db.pool, id, new Date(created.getTime() + 30_000));
    expect(await lastSeen(id)).toEqual(created);
    const later = new Date(created.getTime() + 61_000);
    await findSessionMember(test.db.pool, id, later);
    expect(await lastSeen(id)).toEqual(later);
  });
});
