import type { Sql } from "@herald/db";
import { afterAll, beforeAll, inject } from "vitest";
import { snsTestSigner, TEST_CERT_URL, TEST_TOPIC_ARN } from "../../../apps/server/test/support/sns-signing.ts";
import { startApi, type HeraldApi } from "./herald-api.ts";
import { Scenario } from "./scenario.ts";
import { SnsCertificateHost } from "./sns-certificate-host.ts";
import { emitNews, seedWorkload } from "./workload.ts";

/** What a webhook scenario starts from: every email and SMS sent, the API taking webhooks. */
export interface WebhookStage {
  scenario: Scenario;
  api: HeraldApi;
  certificates: SnsCertificateHost;
  /** How many notifications were emitted (and drained). */
  expected: number;
  messages: SentMessage[];
}

/**
 * Opens the scenario for the file (and closes it, its API and the certificate host after);
 * `sendAll(users)` seeds the users, sends each their news through a worker, and starts the API
 * with the SES webhook on, so the test can post the providers' webhooks for what was sent.
 */
export function useWebhookScenario(name: string): { sendAll(users: number): Promise<WebhookStage> } {
  let scenario: Scenario;
  let started: { api: HeraldApi; certificates: SnsCertificateHost } | undefined;
  beforeAll(async () => {
    scenario = await Scenario.open(name, inject("templateUrl"));
  });
  afterAll(async () => {
    await started?.api.stop();
    await scenario?.close();
    await started?.certificates.stop();
  });
  return {
    async sendAll(users) {
      await seedWorkload(scenario.sql, users);
      const worker = scenario.startWorker();
      started = await startWebhookApi(scenario);
      await scenario.ready(worker);
      const expected = await emitNews(scenario.sql, users);
      await scenario.drain(expected);
      return { scenario, ...started, expected, messages: await sentMessages(scenario.sql) };
    },
  };
}

/** The API process with the SES webhook on (the test topic) and SNS's certificate download on loopback. */
async function startWebhookApi(scenario: Scenario): Promise<{ api: HeraldApi; certificates: SnsCertificateHost }> {
  const certificates = await SnsCertificateHost.start(snsTestSigner().certificatePem, TEST_CERT_URL);
  const api = await startApi(scenario, { env: { HERALD_SES_SNS_TOPIC_ARNS: TEST_TOPIC_ARN, ...certificates.environment } });
  return { api, certificates };
}

/** An email or SMS Herald sent: the provider's id for it is what the webhooks report on. */
export interface SentMessage {
  id: string;
  channel: "email" | "sms";
  /** The user's number in the workload (`u-<n>`). */
  user: number;
  address: string;
  providerMessageId: string;
}

/** Every email and SMS the providers accepted, by user number. */
async function sentMessages(sql: Sql): Promise<SentMessage[]> {
  const { rows } = await sql.query<SentMessage>(
    `SELECT n.id::text, n.channel, substr(u.external_id, 3)::int AS "user", n.address, n.provider_message_id AS "providerMessageId"
       FROM herald.notifications n JOIN herald.users u ON u.id = n.user_id
      WHERE n.channel IN ('email', 'sms') AND n.status = 'sent' ORDER BY 3, 2`,
  );
  if (rows.some((r) => !r.providerMessageId)) throw new Error("a sent notification has no provider message id");
  return rows;
}

/** Waits until every recorded webhook is applied (or ignored) and no apply job is left. */
export async function untilWebhooksApplied(sql: Sql, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await sql.query<{ pending: number; jobs: number }>(
      `SELECT (SELECT count(*) FROM herald.webhook_events WHERE state = 'pending')::int AS pending,
              (SELECT count(*) FROM graphile_worker.jobs WHERE task_identifier = 'apply_webhook_events')::int AS jobs`,
    );
    if (rows[0]!.pending === 0 && rows[0]!.jobs === 0) return;
    if (Date.now() > deadline) throw new Error(`webhooks not applied after ${timeoutMs} ms: ${JSON.stringify(rows[0])}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** What the webhooks made of one notification: its status, its logged events (as a set) and its address's suppression. */
export interface WebhookOutcome {
  status: string;
  events: string[];
  suppression: string | null;
}

/** The outcome of each notification, by id. */
export async function webhookOutcomes(sql: Sql): Promise<Record<string, WebhookOutcome>> {
  const { rows } = await sql.query<WebhookOutcome & { id: string }>(
    `SELECT n.id::text, n.status,
            coalesce((SELECT array_agg(e.type ORDER BY e.type) FROM herald.notification_events e WHERE e.notification_id = n.id), '{}') AS events,
            (SELECT s.reason FROM herald.suppressions s WHERE s.channel = n.channel AND s.address = n.address) AS suppression
       FROM herald.notifications n`,
  );
  return Object.fromEntries(rows.map(({ id, ...outcome }) => [id, outcome]));
}
