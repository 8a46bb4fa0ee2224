import type { Sql } from "../sql.ts";

/** A demo user as `pnpm demo` generates it. */
export interface DemoUser {
  externalId: string;
  email: string | null;
  phone: string | null;
  timezone: string | null;
  locale: string;
  attributes: Record<string, unknown>;
  createdAt: string;
}

export interface DemoDevice {
  externalId: string;
  token: string;
  platform: "ios" | "android" | "web";
  /** A reason when the device was already deactivated (uninstalled, a token the provider dropped). */
  deactivatedReason: string | null;
  deactivatedAt: string | null;
  createdAt: string;
}

export interface DemoActivity {
  externalId: string;
  name: string;
  occurredAt: string;
  properties: Record<string, unknown>;
}

export interface DemoQuietHours {
  externalId: string;
  start: string;
  end: string;
}

/** Inserts a chunk of users in one statement; existing external ids are left as they are. */
export async function insertDemoUsers(sql: Sql, users: readonly DemoUser[]): Promise<number> {
  const { rowCount } = await sql.query(
    `INSERT INTO herald.users (external_id, email, phone, timezone, locale, attributes, created_at, updated_at)
     SELECT u.external_id, u.email, u.phone, u.timezone, u.locale, u.attributes, u.created_at, u.created_at
       FROM jsonb_to_recordset($1::jsonb) AS u(external_id text, email text, phone text, timezone text, locale text, attributes jsonb, created_at timestamptz)
     ON CONFLICT (external_id) DO NOTHING`,
    [JSON.stringify(users.map((u) => ({ external_id: u.externalId, email: u.email, phone: u.phone, timezone: u.timezone, locale: u.locale, attributes: u.attributes, created_at: u.createdAt })))],
  );
  return rowCount ?? 0;
}

export async function insertDemoDevices(sql: Sql, devices: readonly DemoDevice[]): Promise<number> {
  const { rowCount } = await sql.query(
    `INSERT INTO herald.devices (user_id, token, platform, active, deactivated_reason, deactivated_at, created_at, updated_at)
     SELECT u.id, d.token, d.platform, d.deactivated_reason IS NULL, d.deactivated_reason, d.deactivated_at, d.created_at, coalesce(d.deactivated_at, d.created_at)
       FROM jsonb_to_recordset($1::jsonb) AS d(external_id text, token text, platform text, deactivated_reason text, deactivated_at timestamptz, created_at timestamptz)
       JOIN herald.users u ON u.external_id = d.external_id
     ON CONFLICT (token) DO NOTHING`,
    [
      JSON.stringify(
        devices.map((d) => ({ external_id: d.externalId, token: d.token, platform: d.platform, deactivated_reason: d.deactivatedReason, deactivated_at: d.deactivatedAt, created_at: d.createdAt })),
      ),
    ],
  );
  return rowCount ?? 0;
}

export async function insertDemoActivities(sql: Sql, activities: readonly DemoActivity[]): Promise<number> {
  const { rowCount } = await sql.query(
    `INSERT INTO herald.activities (user_id, name, properties, occurred_at)
     SELECT u.id, a.name, a.properties, a.occurred_at
       FROM jsonb_to_recordset($1::jsonb) AS a(external_id text, name text, properties jsonb, occurred_at timestamptz)
       JOIN herald.users u ON u.external_id = a.external_id`,
    [JSON.stringify(activities.map((a) => ({ external_id: a.externalId, name: a.name, properties: a.properties, occurred_at: a.occurredAt })))],
  );
  return rowCount ?? 0;
}

/** Quiet hours on every category and channel, in the user's own zone. */
export async function insertDemoQuietHours(sql: Sql, hours: readonly DemoQuietHours[]): Promise<number> {
  const { rowCount } = await sql.query(
    `INSERT INTO herald.quiet_hours (user_id, start_time, end_time)
     SELECT u.id, q.start_time, q.end_time
       FROM jsonb_to_recordset($1::jsonb) AS q(external_id text, start_time time, end_time time)
       JOIN herald.users u ON u.external_id = q.external_id
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(hours.map((h) => ({ external_id: h.externalId, start_time: h.start, end_time: h.end })))],
  );
  return rowCount ?? 0;
}

/** Opt-outs people made through the app (source "api"), at the time given. */
export async function insertDemoOptOuts(sql: Sql, optOuts: ReadonlyArray<{ externalId: string; category: string; channel: string; at: string }>): Promise<number> {
  const { rowCount } = await sql.query(
    `INSERT INTO herald.preferences (user_id, category, channel, enabled, source, changed_at)
     SELECT u.id, o.category, o.channel, false, 'api', o.at
       FROM jsonb_to_recordset($1::jsonb) AS o(external_id text, category text, channel text, at timestamptz)
       JOIN herald.users u ON u.external_id = o.external_id
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(optOuts.map((o) => ({ external_id: o.externalId, category: o.category, channel: o.channel, at: o.at })))],
  );
  return rowCount ?? 0;
}
