import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverAlertWebhook } from "../src/operations/alert-webhook.ts";
import { RecordingServer } from "./support/recording-server.ts";
import { eventually } from "./support/rest.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation, trpcQuery } from "./support/trpc-http.ts";

const SECRET_KEY = "k".repeat(40);
const SIGNING_SECRET = "alert-signing-secret-0123";

describe("alerts: raised once, resolved when the condition clears, POSTed signed with retries", () => {
  const server = useTestServer({ withWorkers: true, env: { HERALD_SECRET_KEY: SECRET_KEY } });
  const receiver = new RecordingServer();
  let receiverUrl: string;
  let admin: string;

  beforeAll(async () => {
    receiverUrl = await receiver.start();
    admin = (await memberWithSession(server.database, "admin")).cookie;
  });
  afterAll(async () => {
    await receiver.stop();
  });

  const sql = () => server.database.pool;
  async function setting(key: string, value: unknown) {
    const result = await trpcMutation(server.url, "settings.update", { key, value }, { cookie: admin, origin: "http://localhost:3000" });
    expect(result.error).toBeNull();
  }
  /** Runs the cron task now instead of at the next minute, and waits until every job is done. */
  async function evaluate() {
    await sql().query("SELECT graphile_worker.add_job('evaluate_alerts')");
    await eventually(async () => (await sql().query("SELECT count(*)::int AS n FROM graphile_worker.jobs")).rows[0].n, (n) => n === 0, "the alert jobs to finish");
  }
  function signed(request: { headers: Record<string, unknown>; body: string }): boolean {
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers["herald-signature"]));
    if (!match) return false;
    return createHmac("sha256", SIGNING_SECRET).update(`${match[1]}.${request.body}`).digest("hex") === match[2];
  }

  it("stores the signing secret sealed, never echoing it", async () => {
    const origin = { cookie: admin, origin: "http://localhost:3000" };
    expect((await trpcQuery(server.url, "operations.alertWebhook", undefined, origin)).data).toEqual({ secretStored: false, canStoreSecrets: true });
    const short = await trpcMutation(server.url, "operations.setAlertWebhookSecret", { secret: "short" }, origin);
    expect(short.error?.message).toBe("secret: must be at least 16 characters");
    expect((await trpcMutation(server.url, "operations.setAlertWebhookSecret", { secret: SIGNING_SECRET }, origin)).error).toBeNull();
    const { rows } = await sql().query("SELECT secret_ciphertext FROM herald.alert_webhook_secret");
    expect(rows[0].secret_ciphertext.includes(Buffer.from(SIGNING_SECRET))).toBe(false);
    const audit = await sql().query("SELECT action FROM herald.audit_log WHERE action = 'alerts.webhook_secret.set'");
    expect(audit.rows).toHaveLength(1);
  });

  it("raises a breaker alert once, POSTs it signed, retries a failed POST, and announces the resolution", async () => {
    await setting("alerts.webhookUrl", `${receiverUrl}/hook`);
    await setting("alerts.webhookAllowedHosts", "127.0.0.1");
    await setting("alerts.breakerOpenMinutes", 5);
    // The receiver fails the first POST: graphile-worker retries the job.
    receiver.answer = (_request, index) => (index === 0 ? { status: 503 } : { status: 204 });
    await sql().query(
      "INSERT INTO herald.provider_breakers (breaker_key, state, consecutive_failures, opened_at, reason) VALUES ('ses-email', 'open', 5, now() - interval '6 minutes', 'timeout')",
    );

    await evaluate();
    expect(receiver.requests).toHaveLength(2);
    for (const request of receiver.requests) {
      expect(request.path).toBe("/hook");
      expect(signed(request)).toBe(true);
    }
    const raised = JSON.parse(receiver.requests[1]!.body);
    expect(raised).toMatchObject({ event: "raised", alert: { kind: "breaker_open", subject: "ses-email", threshold: 5, resolvedAt: null } });
    expect(receiver.requests[0]!.headers["idempotency-key"]).toBe(receiver.requests[1]!.headers["idempotency-key"]);

    // The next tick finds the same condition: no second alert, no second POST.
    await evaluate();
    expect(receiver.requests).toHaveLength(2);
    const open = await trpcQuery(server.url, "operations.openAlerts", undefined, { cookie: admin });
    expect(open.data).toMatchObject([{ kind: "breaker_open", subject: "ses-email", resolvedAt: null }]);

    await sql().query("UPDATE herald.provider_breakers SET state = 'closed', opened_at = NULL WHERE breaker_key = 'ses-email'");
    await evaluate();
    expect(receiver.requests).toHaveLength(3);
    const resolved = JSON.parse(receiver.requests[2]!.body);
    expect(resolved).toMatchObject({ event: "resolved", alert: { id: raised.alert.id, kind: "breaker_open" } });
    expect(resolved.alert.resolvedAt).not.toBeNull();
    expect((await trpcQuery(server.url, "operations.openAlerts", undefined, { cookie: admin })).data).toEqual([]);
    const history = await trpcQuery(server.url, "operations.alerts", { limit: 10 }, { cookie: admin });
    expect(history.data.items).toMatchObject([{ id: raised.alert.id, kind: "breaker_open" }]);
    expect(history.data.items[0].resolvedAt).not.toBeNull();
  });

  it("refuses a webhook URL on a private address: nothing is sent and the job is not retried", async () => {
    await setting("alerts.webhookUrl", "https://10.20.30.40/hook");
    await setting("alerts.webhookAllowedHosts", "");
    const before = receiver.requests.length;
    await sql().query("UPDATE herald.provider_breakers SET state = 'open', opened_at = now() - interval '1 hour' WHERE breaker_key = 'ses-email'");
    await evaluate();
    expect(receiver.requests).toHaveLength(before);
    expect((await trpcQuery(server.url, "operations.openAlerts", undefined, { cookie: admin })).data).toHaveLength(1);
    // The job ended (no retry waiting), and no alert is left undelivered by a retrying job.
    expect((await sql().query("SELECT count(*)::int AS n FROM graphile_worker.jobs")).rows[0].n).toBe(0);
  });
});

describe("the alert webhook's SSRF guard (the generic provider's, reused)", () => {
  const alert = { id: "1", kind: "breaker_open", subject: "ses-email", message: "open", value: 6, threshold: 5, raisedAt: new Date(), resolvedAt: null };

  it.each([
    ["https://10.0.0.7/hook", /private address/],
    ["https://169.254.169.254/latest/meta-data", /metadata address/],
    ["https://[::1]/hook", /loopback address/],
    ["http://127.0.0.1:9/hook", /only https URLs are allowed/],
  ])("refuses %s before connecting", async (url, reason) => {
    const delivery = await deliverAlertWebhook({ url, signingSecret: SIGNING_SECRET, allowedHosts: [] }, "raised", alert);
    expect(delivery.kind).toBe("refused");
    expect(delivery.kind === "refused" && delivery.reason).toMatch(reason);
  });

  it("refuses a public name that resolves to a private address", async () => {
    const delivery = await deliverAlertWebhook(
      { url: "https://alerts.example.com/hook", signingSecret: SIGNING_SECRET, allowedHosts: [], resolve: async () => [{ address: "192.168.1.10", family: 4 }] },
      "raised",
      alert,
    );
    expect(delivery).toEqual({ kind: "refused", reason: "alerts.example.com resolves to a private address (192.168.1.10)" });
  });
});
