import { describe, expect, it } from "vitest";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation, trpcQuery } from "./support/trpc-http.ts";

const SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

describe("Settings → Providers without HERALD_SECRET_KEY", () => {
  const server = useTestServer();

  it("refuses to store secrets and says why", async () => {
    const { cookie } = await memberWithSession(server.database, "admin");
    const result = await trpcMutation(
      server.url,
      "providers.save",
      { channel: "email", role: "primary", kind: "ses", settings: { region: "eu-west-1", from: "hi@acme.example" }, secrets: { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: SECRET_ACCESS_KEY } },
      { cookie },
    );
    expect(result.error?.message).toBe("Herald cannot store secrets until HERALD_SECRET_KEY is set: they are encrypted with it at rest");
    expect((await server.database.pool.query("SELECT count(*)::int AS n FROM herald.provider_configs")).rows[0].n).toBe(0);
  });
});

describe("Settings → Providers", () => {
  const server = useTestServer({ env: { HERALD_SECRET_KEY: "a-test-secret-key-that-is-long-enough-123" } });

  it("seals secrets at rest, shows them masked, and never writes them to the audit log", async () => {
    const { cookie } = await memberWithSession(server.database, "admin");
    const saved = await trpcMutation(
      server.url,
      "providers.save",
      { channel: "email", role: "primary", kind: "ses", settings: { region: "eu-west-1", from: "hi@acme.example" }, secrets: { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: SECRET_ACCESS_KEY } },
      { cookie },
    );
    expect(saved.ok).toBe(true);
    const { rows } = await server.database.pool.query("SELECT secret_ciphertext, settings FROM herald.provider_configs");
    expect(rows[0].secret_ciphertext.toString("latin1")).not.toContain(SECRET_ACCESS_KEY);
    expect(rows[0].settings).toEqual({ region: "eu-west-1", from: "hi@acme.example" });

    const listed = await trpcQuery(server.url, "providers.list", undefined, { cookie });
    const ses = listed.data.providers.find((p: { kind: string }) => p.kind === "ses");
    expect(ses).toMatchObject({ channel: "email", role: "primary", source: "dashboard", secrets: { accessKeyId: "••••MPLE", secretAccessKey: "••••EKEY" } });
    expect(JSON.stringify(listed.data)).not.toContain(SECRET_ACCESS_KEY);

    const audit = await server.database.pool.query("SELECT detail::text FROM herald.audit_log WHERE action = 'providers.save'");
    expect(audit.rows[0].detail).not.toContain(SECRET_ACCESS_KEY);
    expect(audit.rows[0].detail).toContain('"secretsReplaced": ["accessKeyId", "secretAccessKey"]');
  });

  it("keeps the stored secret when settings change without new secrets", async () => {
    const { cookie } = await memberWithSession(server.database, "admin");
    const before = (await server.database.pool.query("SELECT secret_ciphertext FROM herald.provider_configs")).rows[0].secret_ciphertext;
    const result = await trpcMutation(
      server.url,
      "providers.save",
      { channel: "email", role: "primary", kind: "ses", settings: { region: "eu-central-1", from: "hi@acme.example" } },
      { cookie },
    );
    expect(result.ok).toBe(true);
    const after = (await server.database.pool.query("SELECT secret_ciphertext, settings FROM herald.provider_configs")).rows[0];
    expect(after.secret_ciphertext.equals(before)).toBe(true);
    expect(after.settings.region).toBe("eu-central-1");
  });

  it("refuses a webhook aimed at a private address at save time", async () => {
    const { cookie } = await memberWithSession(server.database, "admin");
    const result = await trpcMutation(
      server.url,
      "providers.save",
      { channel: "sms", role: "secondary", kind: "webhook", settings: { url: "https://169.254.169.254/latest" }, secrets: { signingSecret: "s".repeat(40) } },
      { cookie },
    );
    expect(result.error?.message).toBe("settings.url: 169.254.169.254 resolves to a metadata address (169.254.169.254)");
  });

  it("rejects invalid settings naming the field, and a kind on the wrong channel", async () => {
    const { cookie } = await memberWithSession(server.database, "admin");
    const bad = await trpcMutation(server.url, "providers.save", { channel: "email", role: "secondary", kind: "ses", settings: { region: "mars", from: "x@y.z" }, secrets: { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: SECRET_ACCESS_KEY } }, { cookie });
    expect(bad.error?.message).toBe("settings: region: must be an AWS region such as eu-west-1");
    const wrong = await trpcMutation(server.url, "providers.save", { channel: "sms", role: "primary", kind: "ses", settings: {}, secrets: {} }, { cookie });
    expect(wrong.error?.message).toBe("A ses provider cannot serve sms");
  });

  it("sends a test message through the channel's provider and shows its answer", async () => {
    const { cookie } = await memberWithSession(server.database, "admin");
    const result = await trpcMutation(server.url, "providers.sendTest", { channel: "sms", to: "+15005550001" }, { cookie });
    expect(result.data).toMatchObject({ provider: "sandbox-sms", outcome: "dead", providerCode: "21211" });
    // An accepted test message is kept in the sandbox outbox with no notification behind it.
    // (Email is SES by now: saved above, and this sandbox-less test must not reach AWS.)
    const sent = await trpcMutation(server.url, "providers.sendTest", { channel: "push", to: "a-device-token" }, { cookie });
    // The same answer the template editor's test send gives (one mapping serves both).
    expect(sent.data).toMatchObject({ to: "a-device-token", provider: "sandbox-push", outcome: "sent", providerCode: null, reason: null, providerMessageId: expect.any(String) });
    const { rows } = await server.database.pool.query("SELECT notification_id FROM herald.sandbox_messages WHERE recipient = 'a-device-token'");
    expect(rows).toEqual([{ notification_id: null }]);
  });

  it("lets an operator read providers but not change them", async () => {
    const { cookie } = await memberWithSession(server.database, "operator");
    expect((await trpcQuery(server.url, "providers.list", undefined, { cookie })).ok).toBe(true);
    expect((await trpcMutation(server.url, "providers.remove", { channel: "email", role: "primary" }, { cookie })).error?.data.code).toBe("FORBIDDEN");
  });
});
