import { findSessionMember } from "@herald/db";
import { describe, expect, it } from "vitest";
import { hashPassword } from "../src/auth/password.ts";
import { hashToken } from "../src/auth/tokens.ts";
import { memberWithSession, sessionCookieFor, useTestServer } from "./support/test-server.ts";
import { cookieFrom, trpcMutation, trpcQuery } from "./support/trpc-http.ts";

const PASSWORD = "correct horse battery staple";

describe("first admin, sign-in and sessions", () => {
  const server = useTestServer({ env: { HERALD_SIGN_IN_FAILURES_PER_ACCOUNT: "3" } });

  it("offers the first-admin page until one exists, and exactly one of concurrent attempts wins", async () => {
    expect((await trpcQuery(server.url, "setup.status")).data).toEqual({ needsFirstAdmin: true, mode: "development" });

    const attempts = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        trpcMutation(server.url, "setup.createFirstAdmin", { email: `Admin${i}@Example.com`, name: `Admin ${i}`, password: PASSWORD }),
      ),
    );
    const won = attempts.filter((a) => a.ok);
    expect(won).toHaveLength(1);
    expect(attempts.filter((a) => a.error?.data.code === "CONFLICT")).toHaveLength(4);
    expect(won[0]!.data.member.role).toBe("admin");

    const cookie = won[0]!.setCookie.find((c) => c.startsWith("herald_session="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);

    const me = await trpcQuery(server.url, "auth.me", undefined, { cookie: cookieFrom(won[0]!.setCookie) });
    expect(me.data.member.email).toBe(won[0]!.data.member.email);
    expect(me.data.capabilities).toContain("members.manage");
    expect((await trpcQuery(server.url, "setup.status")).data.needsFirstAdmin).toBe(false);
  });

  it("answers a wrong password and an unknown account with the same words", async () => {
    const unknown = await trpcMutation(server.url, "auth.signIn", { email: "nobody@example.com", password: PASSWORD });
    const wrong = await trpcMutation(server.url, "auth.signIn", { email: "admin0@example.com", password: "not the password" });
    expect(unknown.error?.data.code).toBe("UNAUTHORIZED");
    expect(wrong.error?.data.code).toBe("UNAUTHORIZED");
    expect(unknown.error?.message).toBe("Wrong email or password");
    expect(wrong.error?.message).toBe(unknown.error?.message);
  });

  it("rotates the session on sign-in and kills it on sign-out", async () => {
    const email = (await server.database.prisma.member.findFirstOrThrow({ where: { role: "admin" } })).email;
    const first = await trpcMutation(server.url, "auth.signIn", { email, password: PASSWORD });
    expect(first.ok).toBe(true);
    const firstCookie = cookieFrom(first.setCookie);

    const second = await trpcMutation(server.url, "auth.signIn", { email, password: PASSWORD }, { cookie: firstCookie });
    const secondCookie = cookieFrom(second.setCookie);
    expect(secondCookie).not.toBe(firstCookie);
    expect(await findSessionMember(server.database.pool, hashToken(firstCookie.split("=")[1]!))).toBeNull();
    expect((await trpcQuery(server.url, "auth.me", undefined, { cookie: firstCookie })).data.member).toBeNull();

    const out = await trpcMutation(server.url, "auth.signOut", {}, { cookie: secondCookie });
    expect(out.setCookie[0]).toMatch(/^herald_session=; .*Max-Age=0/);
    expect((await trpcQuery(server.url, "auth.me", undefined, { cookie: secondCookie })).data.member).toBeNull();
  });

  it("refuses an expired session with UNAUTHORIZED", async () => {
    const { member } = await memberWithSession(server.database, "admin");
    const expired = await sessionCookieFor(server.database, member.id, new Date(Date.now() - 1000));
    const result = await trpcQuery(server.url, "members.list", undefined, { cookie: expired });
    expect(result.status).toBe(401);
    expect(result.error?.data.code).toBe("UNAUTHORIZED");
  });

  it("throttles an account after repeated failures, whether or not it exists, without saying which", async () => {
    const member = await server.database.prisma.member.create({
      data: { email: "throttled@example.com", name: "T", role: "viewer", passwordHash: await hashPassword(PASSWORD) },
    });
    for (const email of [member.email, "ghost@example.com"]) {
      for (let i = 0; i < 3; i++) {
        expect((await trpcMutation(server.url, "auth.signIn", { email, password: "wrong password!" })).error?.data.code).toBe("UNAUTHORIZED");
      }
    }
    const real = await trpcMutation(server.url, "auth.signIn", { email: member.email, password: PASSWORD });
    const ghost = await trpcMutation(server.url, "auth.signIn", { email: "ghost@example.com", password: PASSWORD });
    expect(real.status).toBe(429);
    expect(ghost.status).toBe(429);
    expect(real.error?.message).toBe(ghost.error?.message);
    expect(real.error?.message).toMatch(/^Too many sign-in attempts\. Try again in \d+ minute\(s\)\.$/);
  });

  it("rejects invalid input with BAD_REQUEST naming the field, and writes nothing", async () => {
    const before = await server.database.prisma.member.count();
    const result = await trpcMutation(server.url, "auth.acceptInvite", { token: "x".repeat(30), name: "", password: "short" });
    expect(result.status).toBe(400);
    expect(result.error?.data.code).toBe("BAD_REQUEST");
    expect(result.error?.data.fields?.map((f) => f.path)).toEqual(["name", "password"]);
    expect(result.error?.message).toBe("name: must not be empty; password: must be at least 12 characters");
    expect(await server.database.prisma.member.count()).toBe(before);
  });
});

describe("sessions behind TLS", () => {
  const server = useTestServer({ env: { HERALD_PUBLIC_URL: "https://herald.example.com" } });

  it("marks the cookie Secure and sends HSTS", async () => {
    const result = await trpcMutation(
      server.url,
      "setup.createFirstAdmin",
      { email: "tls@example.com", name: "TLS", password: PASSWORD },
      { origin: "https://herald.example.com" },
    );
    expect(result.ok).toBe(true);
    expect(result.setCookie[0]).toMatch(/; Secure/);
    expect(result.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });
});
