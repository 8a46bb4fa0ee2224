import { describe, expect, it } from "vitest";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation, trpcQuery } from "./support/trpc-http.ts";

describe("settings", () => {
  const server = useTestServer({ env: { HERALD_DEFAULT_TIMEZONE: "Europe/Berlin" } });

  it("shows environment-pinned settings read-only, naming the variable", async () => {
    const { cookie } = await memberWithSession(server.database, "viewer");
    const { data } = await trpcQuery(server.url, "settings.list", undefined, { cookie });
    const tz = data.settings.find((s: { key: string }) => s.key === "workspace.defaultTimezone");
    expect(tz).toMatchObject({ value: "Europe/Berlin", pinnedBy: "HERALD_DEFAULT_TIMEZONE" });
    const name = data.settings.find((s: { key: string }) => s.key === "workspace.name");
    expect(name).toMatchObject({ value: "Herald", pinnedBy: null });

    const { cookie: adminCookie } = await memberWithSession(server.database, "admin");
    const refused = await trpcMutation(server.url, "settings.update", { key: "workspace.defaultTimezone", value: "UTC" }, { cookie: adminCookie });
    expect(refused.error?.data.code).toBe("BAD_REQUEST");
    expect(refused.error?.message).toBe('"Default time zone" is set by HERALD_DEFAULT_TIMEZONE and cannot be changed here');
  });

  it("changes a setting and audit-logs the change with its old and new value", async () => {
    const { cookie, member } = await memberWithSession(server.database, "admin");
    const result = await trpcMutation(server.url, "settings.update", { key: "workspace.name", value: "Acme" }, { cookie });
    expect(result.data.setting.value).toBe("Acme");
    const entry = await server.database.prisma.auditEntry.findFirstOrThrow({ where: { action: "settings.update", target: "workspace.name" } });
    expect(entry).toMatchObject({ actor: member.email, detail: { from: "Herald", to: "Acme" } });
  });

  it("rejects an invalid value or an unknown key and changes nothing", async () => {
    const { cookie } = await memberWithSession(server.database, "admin");
    const bad = await trpcMutation(server.url, "settings.update", { key: "auth.sessionTtlHours", value: -5 }, { cookie });
    expect(bad.error?.data.code).toBe("BAD_REQUEST");
    expect(bad.error?.message).toMatch(/^Session lifetime \(hours\): /);
    const unknown = await trpcMutation(server.url, "settings.update", { key: "nope", value: 1 }, { cookie });
    expect(unknown.error?.data.code).toBe("NOT_FOUND");
    expect(await server.database.prisma.setting.count({ where: { key: { in: ["auth.sessionTtlHours", "nope"] } } })).toBe(0);
  });

  it("pages the audit log newest first", async () => {
    const { cookie } = await memberWithSession(server.database, "admin");
    for (let i = 0; i < 5; i++) {
      await trpcMutation(server.url, "settings.update", { key: "workspace.name", value: `Name ${i}` }, { cookie });
    }
    const first = await trpcQuery(server.url, "audit.list", { limit: 3, action: "settings." }, { cookie });
    expect(first.data.items).toHaveLength(3);
    expect(first.data.items[0].detail.to).toBe("Name 4");
    const second = await trpcQuery(server.url, "audit.list", { limit: 3, action: "settings.", cursor: first.data.nextCursor }, { cookie });
    const ids = [...first.data.items, ...second.data.items].map((i: { id: string }) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(second.data.items.at(-1).detail.from).toBe("Herald");
  });

  it("keeps the audit log append-only even for the application's own database role", async () => {
    await expect(server.database.pool.query("UPDATE herald.audit_log SET action = 'x'")).rejects.toThrow(/audit_log is append-only/);
    await expect(server.database.pool.query("DELETE FROM herald.audit_log")).rejects.toThrow(/audit_log is append-only/);
  });
});
