import { describe, expect, it } from "vitest";
import { eventually, rest } from "./support/rest.ts";
import { useTestServer } from "./support/test-server.ts";

/** Every sandbox identity, end to end: REST in, the real workers, the sandbox, the status path back. */
describe("the sandbox provider's test identities", () => {
  const server = useTestServer({ withWorkers: true, env: { HERALD_SANDBOX_DELIVERY_DELAY_MS: "20" } });
  let events = "";
  let read = "";

  async function send(userId: string, profile: Record<string, unknown>, channel: "email" | "sms" | "push", tokens: string[] = []) {
    if (!events) {
      const admin = await server.apiKey("admin");
      events = await server.apiKey("events");
      read = await server.apiKey("read");
      await rest(server.url, "PUT", "/categories/alerts", admin, { label: "Alerts" });
      for (const c of ["email", "sms", "push"] as const) {
        await rest(server.url, "PUT", `/notification-types/alert.${c}`, admin, {
          channels: [{ channel: c, category: "alerts", content: { subject: "Alert", title: "Alert", body: "Something happened" } }],
        });
      }
    }
    await rest(server.url, "PUT", `/users/${userId}`, events, profile);
    for (const token of tokens) await rest(server.url, "POST", `/users/${userId}/devices`, events, { token, platform: "ios" });
    const posted = await rest(server.url, "POST", "/events", events, { eventId: `e-${userId}`, type: `alert.${channel}`, userId });
    expect(posted.status).toBe(202);
    return posted.body.notifications[0].id as string;
  }

  async function settled(id: string, done: (n: any) => boolean = (n) => n.dispatchState === "done") {
    return (await eventually(() => rest(server.url, "GET", `/notifications/${id}`, read), (r) => r.status === 200 && done(r.body), `notification ${id}`)).body;
  }

  async function suppression(address: string) {
    const { rows } = await server.database.pool.query("SELECT reason FROM herald.suppressions WHERE address = $1", [address]);
    return rows.map((r) => r.reason);
  }

  const eventTypes = (n: { events: Array<{ type: string }> }) => n.events.map((e) => e.type);

  it("success@ and any other address: sent, then delivered", async () => {
    const id = await send("ok-email", { email: "success@simulator.amazonses.com" }, "email");
    const n = await settled(id, (n) => n.status === "delivered");
    expect(eventTypes(n)).toEqual(["created", "attempt", "sent", "delivered"]);
  });

  it("bounce@: sent, then bounced and the address suppressed as a hard bounce", async () => {
    const id = await send("bouncer", { email: "bounce@simulator.amazonses.com" }, "email");
    const n = await settled(id, (n) => n.status === "bounced");
    expect(n.failedAt).toBeDefined();
    await eventually(() => suppression("bounce@simulator.amazonses.com"), (r) => r.length > 0, "suppression");
    expect(await suppression("bounce@simulator.amazonses.com")).toEqual(["hard_bounce"]);
  });

  it("ooto@: delivered, plus an auto_reply event", async () => {
    const id = await send("ooto", { email: "ooto@simulator.amazonses.com" }, "email");
    const n = await settled(id, (n) => eventTypes(n).includes("auto_reply"));
    expect(n.status).toBe("delivered");
  });

  it("complaint@: delivered, then a complaint suppresses the address without moving the status back", async () => {
    const id = await send("complainer", { email: "complaint@simulator.amazonses.com" }, "email");
    const n = await settled(id, (n) => eventTypes(n).includes("complaint"));
    expect(n.status).toBe("delivered");
    expect(await suppression("complaint@simulator.amazonses.com")).toEqual(["complaint"]);
  });

  it("suppressionlist@: bounced as on the provider's suppression list, suppressed", async () => {
    const id = await send("listed", { email: "suppressionlist@simulator.amazonses.com" }, "email");
    const n = await settled(id, (n) => n.status === "bounced");
    expect(n.events.find((e: { type: string }) => e.type === "bounced").detail).toMatchObject({ bounceSubType: "OnAccountSuppressionList" });
    expect(await suppression("suppressionlist@simulator.amazonses.com")).toEqual(["hard_bounce"]);
  });

  it.each([
    ["+15005550001", "21211"],
    ["+15005550002", "21612"],
    ["+15005550003", "21408"],
    ["+15005550009", "21614"],
  ])("%s: dead with provider_rejected:%s", async (phone, code) => {
    const id = await send(`sms-${code}`, { phone }, "sms");
    const n = await settled(id);
    expect(n).toMatchObject({ status: "dead", reason: `provider_rejected:${code}`, attempts: 1 });
    expect(await suppression(phone)).toEqual([]);
  });

  it("+15005550004: dead with 21610 (replied STOP) and the number suppressed", async () => {
    const id = await send("stopper", { phone: "+15005550004" }, "sms");
    expect(await settled(id)).toMatchObject({ status: "dead", reason: "provider_rejected:21610" });
    expect(await suppression("+15005550004")).toEqual(["stop"]);
  });

  it("any other E.164 number: sent, then delivered", async () => {
    const id = await send("texter", { phone: "+4915112345670" }, "sms");
    expect((await settled(id, (n) => n.status === "delivered")).status).toBe("delivered");
  });

  it("push: an invalid- token is deactivated, the others still deliver", async () => {
    const id = await send("pusher", {}, "push", ["invalid-abc", "good-token"]);
    expect((await settled(id, (n) => n.status === "delivered")).attempts).toBe(1);
    const { rows } = await server.database.pool.query("SELECT token, active, deactivated_reason FROM herald.devices WHERE token IN ('invalid-abc', 'good-token') ORDER BY token");
    expect(rows).toEqual([
      { token: "good-token", active: true, deactivated_reason: null },
      { token: "invalid-abc", active: false, deactivated_reason: "unregistered" },
    ]);
  });

  it("push: only invalid tokens → dead, every token deactivated", async () => {
    const id = await send("all-invalid", {}, "push", ["invalid-1", "invalid-2"]);
    expect(await settled(id)).toMatchObject({ status: "dead", reason: "provider_rejected:unregistered" });
    const { rows } = await server.database.pool.query("SELECT count(*)::int AS n FROM herald.devices WHERE token LIKE 'invalid-_' AND active");
    expect(rows[0].n).toBe(0);
  });

  it("push: an unavailable- token retries, with the attempt counted and a retry scheduled", async () => {
    const id = await send("flaky", {}, "push", ["unavailable-1"]);
    const n = await settled(id, (n) => n.dispatchState === "retry_wait");
    expect(n).toMatchObject({ status: "pending", attempts: 1 });
    expect(eventTypes(n)).toEqual(["created", "attempt", "retry_scheduled"]);
    const wait = Date.parse(n.nextAttemptAt) - Date.parse(n.events[1].at);
    expect(wait).toBeGreaterThanOrEqual(9_900);
  });
});
