import type { Channel, Rule, RuleEvaluationContext, SegmentSubject } from "@herald/core";
import type pg from "pg";

/** A user as segment tests write them: the evaluator's facts plus inactive devices. */
export interface PopulationUser {
  externalId: string;
  email?: string | null;
  phone?: string | null;
  locale?: string | null;
  timezone?: string | null;
  attributes?: Record<string, unknown>;
  devices?: Array<{ token: string; active: boolean }>;
  activities?: Array<{ name: string; occurredAt: Date }>;
}

export interface Population {
  users: PopulationUser[];
  suppressions: Array<{ channel: Channel; address: string }>;
}

/** The user as `evaluateRule` reads them. */
export function subjectOf(user: PopulationUser): SegmentSubject {
  return {
    externalId: user.externalId,
    email: user.email ?? null,
    phone: user.phone ?? null,
    locale: user.locale ?? null,
    timezone: user.timezone ?? null,
    attributes: user.attributes ?? {},
    activeDeviceTokens: (user.devices ?? []).filter((d) => d.active).map((d) => d.token),
    activities: user.activities ?? [],
  };
}

export function evaluationContext(population: Population, now: Date, segments: ReadonlyMap<string, Rule>): RuleEvaluationContext {
  const suppressed = new Set(population.suppressions.map((s) => `${s.channel}:${s.address}`));
  return { now, isSuppressed: (channel, address) => suppressed.has(`${channel}:${address}`), resolveSegment: (id) => segments.get(id) ?? null };
}

/** Writes the population in a handful of set-based statements; returns each external id's user id. */
export async function insertPopulation(pool: pg.Pool, population: Population): Promise<Map<string, string>> {
  const users = population.users;
  const { rows } = await pool.query<{ id: string; external_id: string }>(
    `INSERT INTO herald.users (external_id, email, phone, locale, timezone, attributes)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[])
     RETURNING id::text, external_id`,
    [
      users.map((u) => u.externalId),
      users.map((u) => u.email ?? null),
      users.map((u) => u.phone ?? null),
      users.map((u) => u.locale ?? null),
      users.map((u) => u.timezone ?? null),
      users.map((u) => JSON.stringify(u.attributes ?? {})),
    ],
  );
  const ids = new Map(rows.map((r) => [r.external_id, r.id]));
  const devices = users.flatMap((u) => (u.devices ?? []).map((d) => ({ userId: ids.get(u.externalId)!, ...d })));
  await pool.query(
    `INSERT INTO herald.devices (user_id, token, platform, active, deactivated_reason, deactivated_at)
     SELECT d.user_id, d.token, 'ios', d.active, CASE WHEN NOT d.active THEN 'invalid' END, CASE WHEN NOT d.active THEN now() END
       FROM unnest($1::bigint[], $2::text[], $3::boolean[]) d(user_id, token, active)`,
    [devices.map((d) => d.userId), devices.map((d) => d.token), devices.map((d) => d.active)],
  );
  const activities = users.flatMap((u) => (u.activities ?? []).map((a) => ({ userId: ids.get(u.externalId)!, ...a })));
  await pool.query(
    "INSERT INTO herald.activities (user_id, name, occurred_at) SELECT * FROM unnest($1::bigint[], $2::text[], $3::timestamptz[])",
    [activities.map((a) => a.userId), activities.map((a) => a.name), activities.map((a) => a.occurredAt.toISOString())],
  );
  await pool.query(
    "INSERT INTO herald.suppressions (channel, address, reason, source) SELECT c, a, 'manual', 'test' FROM unnest($1::text[], $2::text[]) s(c, a)",
    [population.suppressions.map((s) => s.channel), population.suppressions.map((s) => s.address)],
  );
  return ids;
}
