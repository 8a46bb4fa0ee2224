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
