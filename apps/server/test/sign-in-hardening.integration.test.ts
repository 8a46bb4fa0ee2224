import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashPassword } from "../src/auth/password.ts";
import { useTestServer } from "./support/test-server.ts";
import { cookieFrom, trpcMutation, trpcQuery } from "./support/trpc-http.ts";

// Sign-in against brute force and the stored secrets it rests on: the per-address limit counts
// every attempt whichever account it names and cannot be dodged with X-Forwarded-For (no proxy
// is trusted by default); passwords are argon2id at OWASP's minimum or above; sessions are
// stored as hashes, the cookie is HttpOnly and SameSite; a disabled member gets no session; the
// per-account limit cannot be dodged by spelling the address differently.

const PASSWORD = "correct horse battery staple";

describe("sign-in throttled per address", () => {
  const server = useTestServer({ env: { HERALD_SIGN_IN_ATTEMPTS_PER_ADDRESS: "4", HERALD_SIGN_IN_FAILURES_PER_ACCOUNT: "1000" } });

  it("refuses the address after its attempts, for every account, with the same answer, whatever X-Forwarded-For says", async () => {
    const member = await server.database.prisma.member.create({
      data: { email: "real@example.com", name: "Real", role: "viewer", passwordHash: await hashPassword(PASSWORD) },
    });
    for (let i = 0; i < 4; i++) {
      const attempt = await trpcMutation(server.url, "auth.signIn", { email: `guess-${i}@example.com`, password: "wrong password!" }, { headers: { "x-forwarded-for": `203.0.113.${i}` } });
      expect(attempt.status).toBe(401);
    }
    const real = await trpcMutation(server.url, "auth.signIn", { email: member.email, password: PASSWORD }, { headers: { "x-forwarded-for": "198.51.100.7" } });
    const ghost = await trpcMutation(server.url, "auth.signIn", { email: "ghost@example.com", password: PASSWORD }, { headers: { "x-forwarded-for": "198.51.100.8" } });
    expect(real.status).toBe(429);
    expect(ghost.status).toBe(429);
    expect(real.error?.message).toBe(ghost.error?.message);
    expect(real.headers.get("retry-after")).toBe(ghost.headers.get("retry-after"));
    expect(real.setCookie).toEqual([]);
    expect(await server.database.prisma.session.count()).toBe(0);
  });
});

describe("sign-in throttled per account", () => {
  const server = useTestServer({ env: { HERALD_SIGN_IN_FAILURES_PER_ACCOUNT: "3" } });

  it("counts every spelling of one address as that account", async () => {
    await server.database.prisma.member.create({ data: { email: "case@example.com", name: "Case", role: "viewer", passwordHash: await hashPassword(PASSWORD) } });
    for (const email of ["Case@Example.com", " case@example.com ", "CASE@EXAMPLE.COM"]) {
      expect((await trpcMutation(server.url, "auth.signIn", { email, password: "wrong password!" })).status).toBe(401);
    }
    const right = await trpcMutation(server.url, "auth.signIn", { email: "case@example.com", password: PASSWORD });
    expect(right.status).toBe(429);
    expect(right.setCookie).toEqual([]);
  });
});

describe("passwords, sessions and cookies", () => {
  const server = useTestServer();

  it("stores passwords as argon2id with m ≥ 19 MiB, t ≥ 2, p ≥ 1, and sessions as hashes of their tokens", async () => {
    const created = await trpcMutation(server.url, "setup.createFirstAdmin", { email: "first@example.com", name: "First", password: PASSWORD });
    expect(created.ok).toBe(true);
    const { passwordHash } = await server.database.prisma.member.findFirstOrThrow({ where: { email: "first@example.com" } });
    const [, m, t, p] = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/.exec(passwordHash)!.map(Number);
    expect(m).toBeGreaterThanOrEqual(19 * 1024);
    expect(t).toBeGreaterThanOrEqual(2);
    expect(p).toBeGreaterThanOrEqual(1);
    expect(passwordHash).not.toContain(PASSWORD);

    const signedIn = await trpcMutation(server.url, "auth.signIn", { email: "first@example.com", password: PASSWORD });
    const header = signedIn.setCookie.find((c) => c.startsWith("herald_session="))!;
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; SameSite=Lax/);
    expect(header).toMatch(/; Path=\//);
    const token = cookieFrom(signedIn.setCookie).split("=")[1]!;
    const ids = (await server.database.pool.query<{ id: string }>("SELECT id FROM herald.sessions")).rows.map((r) => r.id);
    expect(ids).toContain(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(await server.database.pool.query("SELECT * FROM herald.sessions").then((r) => r.rows))).not.toContain(token);
  });

  it("gives a disabled member no session, even with the right password", async () => {
    await server.database.prisma.member.create({
      data: { email: "gone@example.com", name: "Gone", role: "viewer", passwordHash: await hashPassword(PASSWORD), disabledAt: new Date() },
    });
    const before = await server.database.prisma.session.count();
    const attempt = await trpcMutation(server.url, "auth.signIn", { email: "gone@example.com", password: PASSWORD });
    expect(attempt.status).toBe(403);
    expect(attempt.setCookie).toEqual([]);
    expect(await server.database.prisma.session.count()).toBe(before);
    expect((await trpcQuery(server.url, "auth.me")).data.member).toBeNull();
  });
});
