import { freePort } from "@herald/db/testing";
import { createApiKey } from "../../../apps/server/src/auth/api-keys.ts";
import type { HeraldWorker } from "./herald-worker.ts";
import type { Scenario } from "./scenario.ts";
import { twilioSignature } from "./webhook-driver.ts";

/** A Herald API process (HERALD_ROLE=api) of the scenario, and the calls the scenarios make to it. */
export interface HeraldApi {
  url: string;
  /** The API key the scenario's calls carry (scope `events`). */
  key: string;
  process: HeraldWorker;
  postEvent(event: { eventId: string; type: string; userId: string }): Promise<Answer>;
  /** A status callback signed the way Twilio signs it, with the scenario's auth token. */
  postTwilioStatus(params: Record<string, string>): Promise<Answer>;
  stop(): Promise<void>;
}

export interface Answer {
  status: number;
  retryAfter: string | null;
  body: string;
}

/** `env`: more of the process's environment (a provider configured otherwise, say). */
export async function startApi(scenario: Scenario, options: { env?: Record<string, string> } = {}): Promise<HeraldApi> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = scenario.startWorker({ ...options.env, HERALD_ROLE: "api", PORT: String(port), HOST: "127.0.0.1", HERALD_PUBLIC_URL: url });
  const { key } = await createApiKey(scenario.sql, { name: "chaos", scope: "events", ratePerMinute: null, createdBy: null });
  await untilHealthy(url, child);
  const answer = async (response: Response): Promise<Answer> => ({
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: await response.text(),
  });
  return {
    url,
    key,
    process: child,
    postEvent: async (event) =>
      answer(
        await fetch(`${url}/api/v1/events`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(event),
        }),
      ),
    postTwilioStatus: async (params) => {
      const webhookUrl = `${url}/webhooks/twilio`;
      return answer(
        await fetch(webhookUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": twilioSignature(webhookUrl, params) },
          body: new URLSearchParams(params).toString(),
        }),
      );
    },
    stop: async () => {
      if (child.child.exitCode === null && child.child.signalCode === null) await child.terminate();
    },
  };
}

async function untilHealthy(url: string, child: HeraldWorker): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    if (child.child.exitCode !== null || Date.now() > deadline) throw new Error(`the API process did not start\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
