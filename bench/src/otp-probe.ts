import http from "node:http";
import type pg from "pg";

/**
 * The critical-lane probe the critical-* scenarios share: an OTP type (one critical SMS step,
 * configured through REST), Postgres's clock read just before each POST, and the checks that
 * make a latency trustworthy.
 */
export const CATEGORY = "security";
export const OTP_TYPE = "otp";
const OTP_NOTIFICATION_TYPE = {
  channels: [{ channel: "sms", category: CATEGORY, lane: "critical", content: { body: "code {{ data.code }}" } }],
} as const;

/**
 * The Postgres span must fit inside the bench's own view of it (the clock is read after the
 * bench's timer starts, and the send is seen after it happened); more than this and the two
 * timestamps did not come from one clock.
 */
const CLOCK_SLACK_MS = 2;

/** Postgres's clock, read just before each POST: the sandbox insert is stamped on the same one. */
export const CLOCK = { name: "bench_clock", text: "SELECT extract(epoch FROM clock_timestamp())::float8 AS t" };

/**
 * The span on Postgres's clock must be positive and fit within the bench's own timer around it
 * (which starts before the clock is read and ends after the send is seen); otherwise the two
 * timestamps did not come from the same clock and the number means nothing.
 */
export function checkedLatency(latencyMs: number, clientMs: number, what: string): number {
  if (!(latencyMs > 0) || latencyMs > clientMs + CLOCK_SLACK_MS) {
    throw new Error(`${what}: ${latencyMs.toFixed(3)} ms on Postgres's clock but ${clientMs.toFixed(3)} ms on the bench's: not one clock`);
  }
  return latencyMs;
}

/**
 * The clock the bench reads is the one Herald's sandbox insert stamps: the clock connection sees
 * Herald's pool (application_name "herald") connected to this scenario's database, whose name is
 * unique to this run, so both are backends of one Postgres server.
 */
export async function assertHeraldOnClockServer(clock: pg.Client): Promise<void> {
  const { rows } = await clock.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'herald' AND pid <> pg_backend_pid()",
  );
  if (rows[0]!.n === 0) throw new Error("the bench's clock connection does not see Herald's connections: they are not on one Postgres server");
}

/** Configuration as code, through the REST API with an admin key. */
export async function configureOtp(baseUrl: string, authorization: string): Promise<void> {
  const put = async (path: string, body: unknown) => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method: "PUT",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`PUT /api/v1${path} answered ${response.status}: ${text}`);
  };
  await put(`/categories/${CATEGORY}`, { label: "Security", mandatory: true });
  await put(`/notification-types/${OTP_TYPE}`, OTP_NOTIFICATION_TYPE);
}

/**
 * One HTTP request on a keep-alive agent, its body read whole. A request that finds its reused
 * socket closed by the server (the server's keep-alive timeout ended it as the request went out:
 * a critical-load run under a million-row broadcast crashed on this) is sent again on a new one,
 * as Node's documentation advises; the bench only sends it GETs and event POSTs, which Herald
 * dedups by event id.
 */
export async function request(...args: Parameters<typeof requestOnce>): Promise<{ status: number; body: string }> {
  try {
    return await requestOnce(...args);
  } catch (error) {
    if (!(error instanceof StaleSocketError)) throw error;
    return requestOnce(...args);
  }
}

class StaleSocketError extends Error {}

function requestOnce(
  agent: http.Agent,
  url: URL,
  method: "GET" | "POST",
  headers: Record<string, string>,
  body: string | null,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: body === null ? headers : { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
        response.on("error", reject);
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) =>
      reject(req.reusedSocket && error.code === "ECONNRESET" ? new StaleSocketError(error.message, { cause: error }) : error),
    );
    req.end(body ?? undefined);
  });
}

/** FNV-1a, to derive a seed per round. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
