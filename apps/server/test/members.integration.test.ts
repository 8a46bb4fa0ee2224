import { describe, expect, it } from "vitest";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { cookieFrom, trpcMutation, trpcQuery } from "./support/trpc-http.ts";

const PASSWORD = "a long enough password";

describe("members and invites", () => {
  const server = useTestServer();

  async function admin() {
    return memberWithSession(server.database, "admin");
  }

  it("invites a marketer with a one-time link that signs them in once", async () => {
    const { cookie } = await admin();
    const invited = await trpcMutation(server.url, "members.invite", { email: "Mia@Example.com", role: "marketer" }, { cookie });
    expect(invited.ok).toBe(true);
    expect(invited.data.invite).toMatchObject({ email: "mia@example.com", role: "marketer" });
    const token = new URL(invited.data.url).pathname.split("/").at(-1)!;
    expect(invited.data.url).toBe(`http://localhost:3000/invite/${token}`);

    expect((await trpcQuery(server.url, "auth.inviteInfo", { token })).data).toEqual({ email: "mia@example.com", role: "marketer" });
    const accepted = await trpcMutation(server.url, "auth.acceptInvite", { token, name: "Mia", password: PASSWORD });
    expect(accepted.data.member).toMatchObject({ email: "mia@example.com", role: "marketer", name: "Mia" });
    const me = await trpcQuery(server.url, "auth.me", undefined, { cookie: cookieFrom(accepted.setCookie) });
    expect(me.data.member.role).toBe("marketer");
    expect(me.data.capabilities).not.toContain("members.manage");

    const again = await trpcMutation(server.url, "auth.acceptInvite", { token, name: "Eve", password: PASSWORD });
    expect(again.error?.data.code).toBe("NOT_FOUND");
    expect((await trpcQuery(server.url, "auth.inviteInfo", { token })).error?.data.code).toBe("NOT_FOUND");

    const signedIn = await trpcMutation(server.url, "auth.signIn", { email: "mia@example.com", password: PASSWORD });
    expect(signedIn.ok).toBe(true);
  });

  it("revokes a pending invite", async () => {
    const { cookie } = await admin();
    const invited = await trpcMutation(server.url, "members.invite", { email: "rev@example.com", role: "viewer" }, { cookie });
    const token = new URL(invited.data.url).pathname.split("/").at(-1)!;
    const listed = await trpcQuery(server.url, "members.list", undefined, { cookie });
    expect(listed.data.invites.map((i: { email: string }) => i.email)).toContain("rev@example.com");
    expect((await trpcMutation(server.url, "members.revokeInvite", { inviteId: invited.data.invite.id }, { cookie })).ok).toBe(true);
    expect((await trpcQuery(server.url, "auth.inviteInfo", { token })).error?.data.code).toBe("NOT_FOUND");
  });

  it("refuses an expired invite", async () => {
    const { cookie } = await admin();
    const invited = await trpcMutation(server.url, "members.invite", { email: "late@example.com", role: "viewer" }, { cookie });
    await server.database.prisma.memberInvite.update({
      where: { id: BigInt(invited.data.invite.id) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const token = new URL(invited.data.url).pathname.split("/").at(-1)!;
    expect((await trpcMutation(server.url, "auth.acceptInvite", { token, name: "Late", password: PASSWORD })).error?.data.code).toBe(
      "NOT_FOUND",
    );
  });

  it("refuses to invite an existing member", async () => {
    const { cookie, member } = await admin();
    const result = await trpcMutation(server.url, "members.invite", { email: member.email, role: "viewer" }, { cookie });
    expect(result.error?.data.code).toBe("CONFLICT");
  });

  it("changes a role, audit-logged", async () => {
    const { cookie, member: actor } = await admin();
    const { member } = await memberWithSession(server.database, "viewer");
    const result = await trpcMutation(server.url, "members.setRole", { memberId: member.id, role: "support" }, { cookie });
    expect(result.data.member.role).toBe("support");
    const entry = await server.database.prisma.auditEntry.findFirstOrThrow({ where: { action: "members.set_role", target: member.email } });
    expect(entry.actor).toBe(actor.email);
    expect(entry.detail).toEqual({ from: "viewer", to: "support" });
  });

  it("disabling a member ends their sessions at once", async () => {
    const { cookie } = await admin();
    const target = await memberWithSession(server.database, "operator");
    expect((await trpcQuery(server.url, "system.status", undefined, { cookie: target.cookie })).ok).toBe(true);
    const result = await trpcMutation(server.url, "members.setDisabled", { memberId: target.member.id, disabled: true }, { cookie });
    expect(result.data.member.disabled).toBe(true);
    expect((await trpcQuery(server.url, "system.status", undefined, { cookie: target.cookie })).status).toBe(401);
    expect(await server.database.prisma.session.count({ where: { memberId: BigInt(target.member.id) } })).toBe(0);
  });

  it("never leaves the workspace without an enabled admin", async () => {
    await server.database.prisma.member.updateMany({ where: { role: "admin" }, data: { disabledAt: new Date() } });
    const last = await admin();
    const demote = await trpcMutation(server.url, "members.setRole", { memberId: last.member.id, role: "viewer" }, { cookie: last.cookie });
    expect(demote.error?.data.code).toBe("CONFLICT");
    const disable = await trpcMutation(server.url, "members.setDisabled", { memberId: last.member.id, disabled: true }, { cookie: last.cookie });
    expect(disable.error?.message).toBe("This is the only enabled admin: make someone else admin first");
  });

  it("answers NOT_FOUND for an unknown member and BAD_REQUEST for a malformed id", async () => {
    const { cookie } = await admin();
    expect((await trpcMutation(server.url, "members.setRole", { memberId: "999999", role: "viewer" }, { cookie })).error?.data.code).toBe(
      "NOT_FOUND",
    );
    const bad = await trpcMutation(server.url, "members.setRole", { memberId: "1; DROP TABLE", role: "viewer" }, { cookie });
    expect(bad.error?.data.code).toBe("BAD_REQUEST");
    expect(bad.error?.message).toBe("memberId: must be an id");
  });
});
