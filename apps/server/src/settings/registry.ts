import { z } from "zod";

/** One workspace setting: stored in Postgres, seeded and pinned by its environment variable. */
export interface SettingDefinition<T extends string | number | boolean = string | number | boolean> {
  key: string;
  label: string;
  description: string;
  type: "string" | "number" | "boolean";
  /** The environment variable that, when set, pins this setting (read-only in the dashboard). */
  env: string;
  default: T;
  /** Validates a value from the dashboard, and (after coercion) from the environment. */
  schema: z.ZodType<T>;
}

const timezone = z.string().refine(isTimeZone, "must be an IANA time zone such as Europe/Berlin");

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function define<T extends string | number | boolean>(definition: SettingDefinition<T>): SettingDefinition {
  return definition as unknown as SettingDefinition;
}

export const SETTINGS: readonly SettingDefinition[] = [
  define({
    key: "workspace.name",
    label: "Workspace name",
    description: "Shown in the dashboard's header.",
    type: "string",
    env: "HERALD_WORKSPACE_NAME",
    default: "Herald",
    schema: z.string().trim().min(1).max(100),
  }),
  define({
    key: "workspace.defaultTimezone",
    label: "Default time zone",
    description: "Used for recipients without a time zone of their own (quiet hours, local-time schedules).",
    type: "string",
    env: "HERALD_DEFAULT_TIMEZONE",
    default: "UTC",
    schema: timezone,
  }),
  define({
    key: "auth.sessionTtlHours",
    label: "Session lifetime (hours)",
    description: "How long a dashboard sign-in lasts before the member must sign in again.",
    type: "number",
    env: "HERALD_SESSION_TTL_HOURS",
    default: 168,
    schema: z.number().int().min(1).max(24 * 90),
  }),
  define({
    key: "auth.inviteTtlHours",
    label: "Invite link lifetime (hours)",
    description: "How long a one-time invite link stays usable.",
    type: "number",
    env: "HERALD_INVITE_TTL_HOURS",
    default: 72,
    schema: z.number().int().min(1).max(24 * 30),
  }),
  define({
    key: "auth.signInFailuresPerAccount",
    label: "Failed sign-ins per account per 15 minutes",
    description: "Further attempts on that email address are refused until the window passes.",
    type: "number",
    env: "HERALD_SIGN_IN_FAILURES_PER_ACCOUNT",
    default: 10,
    schema: z.number().int().min(1).max(1000),
  }),
  define({
    key: "auth.signInAttemptsPerAddress",
    label: "Sign-in attempts per IP address per 15 minutes",
    description: "Counts every attempt from one address, whichever account it names.",
    type: "number",
    env: "HERALD_SIGN_IN_ATTEMPTS_PER_ADDRESS",
    default: 50,
    schema: z.number().int().min(1).max(100_000),
  }),
  define({
    key: "dispatch.maxAttempts",
    label: "Attempts before dead-lettering",
    description: "Provider calls a notification may make before it is dead-lettered (max_attempts).",
    type: "number",
    env: "HERALD_MAX_ATTEMPTS",
    default: 8,
    schema: z.number().int().min(1).max(50),
  }),
  define({
    key: "dispatch.maxAgeMinutes",
    label: "Retry window (minutes)",
    description: "How long after its first attempt a notification keeps retrying, deferrals excluded (max_age).",
    type: "number",
    env: "HERALD_MAX_AGE_MINUTES",
    default: 60,
    schema: z.number().int().min(1).max(7 * 24 * 60),
  }),
  define({
    key: "dispatch.outageMaxAgeHours",
    label: "Outage deferral limit (hours)",
    description: "How long notifications wait out a provider outage or an unconfigured channel before they are dead-lettered.",
    type: "number",
    env: "HERALD_OUTAGE_MAX_AGE_HOURS",
    default: 24,
    schema: z.number().int().min(1).max(24 * 14),
  }),
  define({
    key: "dispatch.outboxBacklogLimit",
    label: "Outbox backlog limit",
    description: "Above this many notifications waiting for the pump, ingest answers 429 with Retry-After.",
    type: "number",
    env: "HERALD_OUTBOX_BACKLOG_LIMIT",
    default: 2_000_000,
    schema: z.number().int().min(1000).max(1_000_000_000),
  }),
  define({
    key: "providers.breakerFailureThreshold",
    label: "Breaker failure threshold",
    description: "Consecutive provider-side failures (timeouts, 5xx, 429 storms) that open a provider's circuit breaker.",
    type: "number",
    env: "HERALD_BREAKER_FAILURE_THRESHOLD",
    default: 5,
    schema: z.number().int().min(1).max(1000),
  }),
  define({
    key: "providers.breakerCoolDownSeconds",
    label: "Breaker cool-down (seconds)",
    description: "How long an open breaker waits before one trial send.",
    type: "number",
    env: "HERALD_BREAKER_COOL_DOWN_SECONDS",
    default: 30,
    schema: z.number().int().min(1).max(3600),
  }),
  define({
    key: "providers.sandboxRatePerSecond",
    label: "Sandbox sends per second",
    description: "The sandbox providers' token bucket, per channel.",
    type: "number",
    env: "HERALD_SANDBOX_RATE_PER_SECOND",
    default: 10_000,
    schema: z.number().min(0.1).max(1_000_000),
  }),
  define({
    key: "broadcasts.maxBouncePercent",
    label: "Broadcast bounce limit (%)",
    description: "A sending broadcast whose emails bounce above this rate (after 200 emails) pauses itself and says why.",
    type: "number",
    env: "HERALD_BROADCAST_MAX_BOUNCE_PERCENT",
    default: 5,
    schema: z.number().min(0.01).max(100),
  }),
  define({
    key: "broadcasts.maxComplaintPercent",
    label: "Broadcast complaint limit (%)",
    description: "A sending broadcast whose emails draw spam complaints above this rate (after 200 emails) pauses itself.",
    type: "number",
    env: "HERALD_BROADCAST_MAX_COMPLAINT_PERCENT",
    default: 0.1,
    schema: z.number().min(0.01).max(100),
  }),
  define({
    key: "alerts.deadLetterDepth",
    label: "Alert: dead letters",
    description: "Raise an alert when this many notifications are dead-lettered and not replayed.",
    type: "number",
    env: "HERALD_ALERT_DEAD_LETTER_DEPTH",
    default: 100,
    schema: z.number().int().min(1).max(100_000_000),
  }),
  define({
    key: "alerts.breakerOpenMinutes",
    label: "Alert: circuit open (minutes)",
    description: "Raise an alert when a provider's circuit breaker has stayed open this long.",
    type: "number",
    env: "HERALD_ALERT_BREAKER_OPEN_MINUTES",
    default: 5,
    schema: z.number().int().min(1).max(10_080),
  }),
  define({
    key: "alerts.complaintRatePercent",
    label: "Alert: email complaint rate (%)",
    description: "Raise an alert when spam complaints over the last 7 days' emails exceed this rate (after 200 emails).",
    type: "number",
    env: "HERALD_ALERT_COMPLAINT_RATE_PERCENT",
    default: 0.1,
    schema: z.number().min(0.001).max(100),
  }),
  define({
    key: "alerts.bounceRatePercent",
    label: "Alert: email bounce rate (%)",
    description: "Raise an alert when bounces over the last 7 days' emails exceed this rate (after 200 emails).",
    type: "number",
    env: "HERALD_ALERT_BOUNCE_RATE_PERCENT",
    default: 5,
    schema: z.number().min(0.01).max(100),
  }),
  define({
    key: "alerts.backlogAgeMinutes",
    label: "Alert: backlog age (minutes)",
    description: "Raise an alert when a channel's oldest due notification has waited this long.",
    type: "number",
    env: "HERALD_ALERT_BACKLOG_AGE_MINUTES",
    default: 10,
    schema: z.number().int().min(1).max(10_080),
  }),
  define({
    key: "alerts.webhookUrl",
    label: "Alert webhook URL",
    description: "Raised and resolved alerts are POSTed here as signed JSON (https; private addresses refused). Empty: no webhook.",
    type: "string",
    env: "HERALD_ALERT_WEBHOOK_URL",
    default: "",
    schema: z.union([z.literal(""), z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://ops.example.com/herald" })]),
  }),
  define({
    key: "alerts.webhookAllowedHosts",
    label: "Alert webhook: allowed private hosts",
    description: "Comma-separated host names or addresses the alert webhook may reach although they are private or plain http (an internal Alertmanager, say).",
    type: "string",
    env: "HERALD_ALERT_WEBHOOK_ALLOWED_HOSTS",
    default: "",
    schema: z.string().trim().max(2000).regex(/^[A-Za-z0-9.:\-\[\], ]*$/, "must be host names or IP addresses separated by commas"),
  }),
  define({
    key: "retention.days",
    label: "Retention (days)",
    description:
      "Notifications, their event log, sandbox messages, applied webhooks and received events older than this are deleted by the prune_expired task; the analytics rollups are kept (docs/data-lifecycle.md).",
    type: "number",
    env: "HERALD_RETENTION_DAYS",
    default: 180,
    schema: z.number().int().min(30).max(3650),
  }),
  define({
    key: "sandbox.deliveryDelayMs",
    label: "Sandbox delivery delay (ms)",
    description: "How long after a sandbox send its delivery, bounce or complaint arrives through the webhook path.",
    type: "number",
    env: "HERALD_SANDBOX_DELIVERY_DELAY_MS",
    default: 500,
    schema: z.number().int().min(0).max(3_600_000),
  }),
  ...(["push", "email", "sms"] as const).flatMap((channel) => [
    define({
      key: `sandbox.${channel}.failureRate`,
      label: `Sandbox ${channel}: failure rate`,
      description: `Share (0 to 1) of sandbox ${channel} sends answered with a transient error, for demos and load tests.`,
      type: "number",
      env: `HERALD_SANDBOX_${channel.toUpperCase()}_FAILURE_RATE`,
      default: 0,
      schema: z.number().min(0).max(1),
    }),
    define({
      key: `sandbox.${channel}.throttleRate`,
      label: `Sandbox ${channel}: throttle rate`,
      description: `Share (0 to 1) of sandbox ${channel} sends answered 429 with Retry-After: 60.`,
      type: "number",
      env: `HERALD_SANDBOX_${channel.toUpperCase()}_THROTTLE_RATE`,
      default: 0,
      schema: z.number().min(0).max(1),
    }),
    define({
      key: `sandbox.${channel}.latencyMs`,
      label: `Sandbox ${channel}: latency (ms)`,
      description: `Added latency of each sandbox ${channel} call.`,
      type: "number",
      env: `HERALD_SANDBOX_${channel.toUpperCase()}_LATENCY_MS`,
      default: 0,
      schema: z.number().int().min(0).max(60_000),
    }),
  ]),
];

export function findSettingDefinition(key: string): SettingDefinition | undefined {
  return SETTINGS.find((s) => s.key === key);
}

/** Environment values are text: coerce to the setting's type before validating. */
export function parseSettingFromEnv(definition: SettingDefinition, raw: string): z.ZodSafeParseResult<unknown> {
  const value = definition.type === "number" ? Number(raw) : definition.type === "boolean" ? raw === "true" || raw === "1" : raw;
  if (definition.type === "boolean" && !["true", "false", "1", "0"].includes(raw)) {
    return z.literal(["true", "false"]).safeParse(raw);
  }
  return definition.schema.safeParse(value);
}
