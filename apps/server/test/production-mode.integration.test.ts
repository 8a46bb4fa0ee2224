import { describe, expect, it } from "vitest";
import { eventually, rest } from "./support/rest.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcQuery } from "./support/trpc-http.ts";

describe("production mode with no provider configured", () => {
  const server = useTestServer({ withWorkers: true, env: { HERALD_MODE: "production" } });

  it("never falls back to the sandbox: notifications defer without attempts, and /readyz and the dashboard say so", async () => {
    const admin = await server.apiKey("admin");
    await rest(server.url, "PUT", "/categories/security", admin, { label: "Security", mandatory: true });
    await rest(server.url, "PUT", "/notification-types/otp", admin, {
      channels: [{ channel: "sms", category: "security", lane: "critical", content: { body: "Your code is {{ data.code }}" } }],
    });
    const events = await server.apiKey("events");
    await rest(server.url, "PUT", "/users/u-1", events, { phone: "+4915112345678" });
    const posted = await rest(server.url, "POST", "/events", events, { eventId: "otp-1", type: "otp", userId: "u-1", data: { code: "424242" } });
    expect(posted.status).toBe(202);

    const read = await server.apiKey("read");
    const n = await eventually(
      () => rest(server.url, "GET", `/notifications/${posted.body.notifications[0].id}`, read),
      (r) => r.body.dispatchState === "deferred",
      "the OTP to be deferred",
    );
    expect(n.body).toMatchObject({ status: "pending", reason: "channel_unconfigured", attempts: 0 });
    const { rows } = await server.database.pool.query("SELECT count(*)::int AS n FROM herald.sandbox_messages");
    expect(rows[0].n).toBe(0);

    const ready = await fetch(`${server.url}/readyz`);
    expect(((await ready.json()) as { unconfiguredChannels: string[] }).unconfiguredChannels).toEqual(["push", "email", "sms"]);

    const { cookie } = await memberWithSession(server.database, "viewer");
    const status = await trpcQuery(server.url, "system.status", undefined, { cookie });
    expect(status.data).toMatchObject({ mode: "production", unconfiguredChannels: ["push", "email", "sms"] });
  });
});
