import { z } from "zod";
import { SETTINGS, parseSettingFromEnv } from "./settings/registry.ts";

/** Every environment variable Herald reads; this module is the only reader of process.env. */
export const ENV_VARIABLES = {
  HERALD_MODE: {
    schema: z.enum(["development", "production"]).default("development"),
    description:
      "`development` puts unconfigured channels on the sandbox; `production` never does (the Docker image's default).",
  },
  HERALD_ROLE: {
    schema: z.enum(["api", "worker", "all"]).default("all"),
    description: "`api` serves HTTP only, `worker` runs the job runners only, `all` does both.",
  },
  PORT: {
    schema: z.coerce.number().int().min(1).max(65535).default(3000),
    description: "HTTP port.",
  },
  HOST: {
    schema: z.string().min(1).default("0.0.0.0"),
    description: "Interface to listen on.",
  },
  DATABASE_URL: {
    schema: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    description: "PostgreSQL 15+ to use. Unset: Herald starts (or attaches to) an embedded Postgres.",
  },
  HERALD_DATA_DIR: {
    schema: z.string().min(1).default("./.herald/pg"),
    description: "Embedded Postgres data directory (ignored with DATABASE_URL).",
  },
  HERALD_PG_RUNTIME_DIR: {
    schema: z.string().min(1).default("/var/lib/herald"),
    description:
      "As root, where embedded Postgres binaries and data go when the `postgres` user cannot reach the checkout.",
  },
  HERALD_PUBLIC_URL: {
    schema: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://herald.example.com" })
      .optional(),
    description:
      "The URL members and providers reach Herald at. Checked against `Origin` on mutations; https makes cookies Secure. Default `http://localhost:$PORT`.",
  },
  HERALD_TRUST_PROXY: {
    schema: z.coerce.number().int().min(0).max(10).default(0),
    description: "Number of reverse proxies in front of Herald whose X-Forwarded-For is trusted.",
  },
  HERALD_LOG_LEVEL: {
    schema: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    description: "Log level (JSON logs on stdout).",
  },
  HERALD_SHUTDOWN_TIMEOUT_MS: {
    schema: z.coerce.number().int().min(1000).max(600_000).default(30_000),
    description: "How long a graceful shutdown waits for in-flight requests and jobs.",
  },
  HERALD_PROVIDER_TIMEOUT_MS: {
    schema: z.coerce.number().int().min(100).max(300_000).optional(),
    description:
      "How long a provider call (and FCM's OAuth token exchange) may go unanswered before Herald gives up and retries the message. Unset: 15 s for SES and Twilio, 10 s for FCM and webhooks.",
  },
  HERALD_RETRY_FLOOR_MS: {
    schema: z.coerce.number().int().min(100).max(600_000).default(10_000),
    description:
      "The shortest wait before a failed message is tried again, and the ceiling of its first backoff (which doubles per failure). A provider's longer Retry-After wins. FCM asks for at least 10 s.",
  },
  HERALD_PUSH_CONCURRENCY: {
    schema: z.coerce.number().int().min(1).max(64).default(4),
    description: "Push batch jobs one worker process runs at once (its own runner: a slow channel never holds back another).",
  },
  HERALD_EMAIL_CONCURRENCY: {
    schema: z.coerce.number().int().min(1).max(64).default(4),
    description: "Email batch jobs one worker process runs at once.",
  },
  HERALD_SMS_CONCURRENCY: {
    schema: z.coerce.number().int().min(1).max(64).default(2),
    description: "SMS batch jobs one worker process runs at once.",
  },
  HERALD_BATCH_SIZE: {
    schema: z.coerce.number().int().min(1).max(1000).default(100),
    description: "Notifications per batch job.",
  },
  HERALD_PUMP_INTERVAL_MS: {
    schema: z.coerce.number().int().min(10).max(60_000).default(100),
    description:
      "How often the outbox pump looks for due notifications: the latency budget between ingest and a job (in-process ingest also wakes it at once).",
  },
  HERALD_WORKER_SILENCE_MS: {
    schema: z.coerce.number().int().min(1000).max(3_600_000).default(45_000),
    description:
      "A worker process silent this long is declared dead: its graphile-worker jobs are unlocked at once and its notifications resume. Heartbeats go every 10 s, or four per silence when it is shorter than 40 s.",
  },
  HERALD_SECRET_KEY: {
    schema: z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -base64 48`)").optional(),
    description:
      "Encrypts provider secrets at rest (AES-256-GCM) and signs unsubscribe and tracking links. Without it the dashboard refuses to store secrets; in production, links are off.",
  },
  HERALD_CLIENT_SECRET: {
    schema: z.string().min(32, "must be at least 32 characters").optional(),
    description: "HS256 secret your backend signs per-user client tokens with (`/api/v1/client/…`: acks and the in-app inbox). Unset: those endpoints are off (404).",
  },
  HERALD_METRICS_TOKEN: {
    schema: z.string().min(16, "must be at least 16 characters").optional(),
    description: "Bearer token Prometheus presents to scrape `GET /metrics`. Unset: /metrics is off (404).",
  },
  HERALD_CLIENT_CORS_ORIGINS: {
    schema: z.string().optional(),
    description: "Comma-separated browser origins allowed to call `/api/v1/client/…` (e.g. `https://app.example.com`).",
  },
  HERALD_SES_REGION: { schema: z.string().min(1).optional(), description: "SES v2 region (with the SES variables below, email uses SES)." },
  HERALD_SES_ACCESS_KEY_ID: { schema: z.string().min(1).optional(), description: "SES access key id." },
  HERALD_SES_SECRET_ACCESS_KEY: { schema: z.string().min(1).optional(), description: "SES secret access key." },
  HERALD_SES_FROM: { schema: z.string().min(3).optional(), description: "Sender address, e.g. `Acme <hello@acme.example>`." },
  HERALD_SES_CONFIGURATION_SET: { schema: z.string().min(1).optional(), description: "SES configuration set that publishes events to SNS." },
  HERALD_SES_ENDPOINT: {
    schema: z.url().optional(),
    description: "Overrides the SES endpoint (a local simulator in tests).",
  },
  HERALD_SES_SNS_TOPIC_ARNS: {
    schema: z.string().optional(),
    description: "Comma-separated SNS topic ARNs `/webhooks/ses` accepts. Unset: the SES webhook is off (404).",
  },
  HERALD_TWILIO_ACCOUNT_SID: { schema: z.string().regex(/^AC[0-9a-fA-F]{32}$/, "must be AC followed by 32 hex characters").optional(), description: "Twilio account SID (with the auth token, SMS uses Twilio)." },
  HERALD_TWILIO_AUTH_TOKEN: { schema: z.string().min(1).optional(), description: "Twilio auth token; also verifies `X-Twilio-Signature` on `/webhooks/twilio`." },
  HERALD_TWILIO_FROM: { schema: z.string().min(1).optional(), description: "Sender number (E.164) when no Messaging Service is set." },
  HERALD_TWILIO_MESSAGING_SERVICE_SID: { schema: z.string().regex(/^MG[0-9a-fA-F]{32}$/).optional(), description: "Twilio Messaging Service SID (preferred over a from-number)." },
  HERALD_TWILIO_BASE_URL: { schema: z.url().optional(), description: "Overrides Twilio's API base URL (a local simulator in tests)." },
  HERALD_FCM_SERVICE_ACCOUNT: {
    schema: z.string().min(2).optional(),
    description: "Firebase service-account JSON (the document itself, or a path to it). Push uses FCM when set.",
  },
  HERALD_FCM_ENDPOINT: { schema: z.url().optional(), description: "Overrides the FCM v1 API origin (a local simulator in tests)." },
  HERALD_FCM_TOKEN_ENDPOINT: {
    schema: z.url().optional(),
    description: "Sends firebase-admin's OAuth token exchange to this origin instead of `oauth2.googleapis.com` (a local simulator in tests).",
  },
  HERALD_IMPORT_MAX_MIB: {
    schema: z.coerce.number().int().min(1).max(1_048_576).default(2048),
    description: "Largest CSV file the dashboard's import accepts, in MiB (the upload streams to Postgres, never into memory).",
  },
  HERALD_WEB_DIST: {
    schema: z.string().min(1).optional(),
    description: "Directory of the built dashboard. Default `apps/web/dist`.",
  },
} as const;

const envSchema = z.object(Object.fromEntries(Object.entries(ENV_VARIABLES).map(([k, v]) => [k, v.schema])) as {
  [K in keyof typeof ENV_VARIABLES]: (typeof ENV_VARIABLES)[K]["schema"];
});

export type Env = z.infer<typeof envSchema> & {
  publicUrl: URL;
  /** Settings pinned by their HERALD_* variable, already validated: key → value. */
  pinnedSettings: ReadonlyMap<string, { env: string; value: unknown }>;
};

export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses the environment; the first bad variable stops the process with one line naming it. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    throw new EnvError(`Invalid environment variable ${name}=${JSON.stringify(present[name] ?? "")}: ${issue.message}`);
  }
  const pinnedSettings = new Map<string, { env: string; value: unknown }>();
  for (const setting of SETTINGS) {
    const raw = present[setting.env];
    if (raw === undefined) continue;
    const value = parseSettingFromEnv(setting, raw);
    if (!value.success) {
      throw new EnvError(
        `Invalid environment variable ${setting.env}=${JSON.stringify(raw)}: ${value.error.issues[0]?.message ?? "invalid"}`,
      );
    }
    pinnedSettings.set(setting.key, { env: setting.env, value: value.data });
  }
  const env = parsed.data;
  return {
    ...env,
    publicUrl: new URL(env.HERALD_PUBLIC_URL ?? `http://localhost:${env.PORT}`),
    pinnedSettings,
  };
}

/** Every variable the README's configuration table must document, settings included. */
export function documentedVariables(): Array<{ name: string; description: string }> {
  return [
    ...Object.entries(ENV_VARIABLES).map(([name, v]) => ({ name, description: v.description })),
    ...SETTINGS.map((s) => ({ name: s.env, description: `${s.description} Pins the setting "${s.label}" (default ${s.default}).` })),
  ];
}
