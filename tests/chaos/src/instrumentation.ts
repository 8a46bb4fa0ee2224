import type { Sql } from "@herald/db";
import type { LedgerEntry } from "./simulator/ledger.ts";

/**
 * The harness's own tables in the scenario's database (schema `chaos`, never a migration): the
 * ledger, copied in once the run is over, every status change as it commits (a trigger), and
 * the moments the test committed a suppression or an opt-out.
 */
export async function installInstrumentation(sql: Sql): Promise<void> {
  await sql.query(`
    CREATE SCHEMA chaos;
    CREATE TABLE chaos.ledger (
      seq int PRIMARY KEY, at timestamptz NOT NULL, provider text, notification_id bigint, address text,
      body_hash text NOT NULL, fault text NOT NULL, accepted boolean NOT NULL
    );
    CREATE TABLE chaos.status_changes (
      notification_id bigint NOT NULL, from_status text NOT NULL, to_status text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE FUNCTION chaos.record_status_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO chaos.status_changes (notification_id, from_status, to_status) VALUES (OLD.id, OLD.status, NEW.status);
      RETURN NEW;
    END $$;
    CREATE TRIGGER chaos_status_changes AFTER UPDATE OF status ON herald.notifications
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION chaos.record_status_change();
    -- What the test committed and when (read after the commit returned, so no send can be
    -- blamed on a change that had not yet committed).
    CREATE TABLE chaos.consent_changes (
      kind text NOT NULL CHECK (kind IN ('suppression', 'opt_out')), channel text NOT NULL,
      address text, user_id bigint, category text, committed_at timestamptz NOT NULL
    );`);
}

/** Copies the ledger in and gives Twilio's entries (which carry no id of Herald's) their notification by number. */
export async function storeLedger(sql: Sql, ledger: readonly LedgerEntry[]): Promise<void> {
  await sql.query(
    `INSERT INTO chaos.ledger (seq, at, provider, notification_id, address, body_hash, fault, accepted)
     SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::boolean[])`,
    [
      ledger.map((e) => e.seq),
      ledger.map((e) => e.at.toISOString()),
      ledger.map((e) => e.provider),
      ledger.map((e) => (e.notificationId && /^\d{1,18}$/.test(e.notificationId) ? e.notificationId : null)),
      ledger.map((e) => e.address),
      ledger.map((e) => e.bodyHash),
      ledger.map((e) => e.fault.kind),
      ledger.map((e) => e.accepted),
    ],
  );
  await sql.query(`
    UPDATE chaos.ledger l SET notification_id = n.id
      FROM herald.notifications n
     WHERE l.provider = 'twilio' AND l.notification_id IS NULL AND n.channel = 'sms' AND n.address = l.address`);
}

/** Suppresses an address now and records when that committed. */
export async function suppressNow(sql: Sql, channel: "email" | "sms" | "push", address: string): Promise<void> {
  await sql.query(`INSERT INTO herald.suppressions (channel, address, reason, source) VALUES ($1, $2, 'manual', 'chaos')`, [channel, address]);
  await sql.query(`INSERT INTO chaos.consent_changes (kind, channel, address, committed_at) VALUES ('suppression', $1, $2, clock_timestamp())`, [channel, address]);
}

/** Opts a user out of a category on a channel now and records when that committed. */
export async function optOutNow(sql: Sql, externalId: string, category: string, channel: "email" | "sms" | "push"): Promise<void> {
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO herald.preferences (user_id, category, channel, enabled, source)
     SELECT id, $2, $3, false, 'api' FROM herald.users WHERE external_id = $1 RETURNING user_id AS id`,
    [externalId, category, channel],
  );
  await sql.query(`INSERT INTO chaos.consent_changes (kind, channel, user_id, category, committed_at) VALUES ('opt_out', $1, $2, $3, clock_timestamp())`, [
    channel,
    rows[0]!.id,
    category,
  ]);
}

/**
 * Notifications a provider accepted (per the ledger so far) that Herald has not recorded as
 * sent: each can be sent again. Read right after a kill -9, it is what that kill adds to the
 * duplicate budget.
 */
export async function acceptedButUnrecorded(sql: Sql, ledger: readonly LedgerEntry[]): Promise<number> {
  return (await unrecordedAcceptances(sql, ledger)).length;
}

/** The ids of the notifications acceptedButUnrecorded counts. */
export async function unrecordedAcceptances(sql: Sql, ledger: readonly LedgerEntry[]): Promise<string[]> {
  const accepted = ledger.filter((e) => e.accepted && e.provider !== "oauth");
  const ids = accepted.map((e) => e.notificationId).filter((id): id is string => id !== null && /^\d{1,18}$/.test(id));
  const numbers = accepted.filter((e) => e.provider === "twilio").map((e) => e.address!);
  const { rows } = await sql.query<{ id: string }>(
    `SELECT id FROM herald.notifications
      WHERE status = 'pending' AND (id = ANY($1::bigint[]) OR (channel = 'sms' AND address = ANY($2::text[])))`,
    [ids, numbers],
  );
  return rows.map((r) => r.id);
}

/**
 * After storeLedger: the notifications a database outage may send twice. Those accepted and
 * unrecorded when it began, and those accepted while it lasted: nothing could be recorded then.
 */
export async function exposedByOutages(sql: Sql, outages: ReadonlyArray<{ from: Date; to: Date; unrecorded: string[] }>): Promise<number> {
  if (outages.length === 0) return 0;
  const { rows } = await sql.query<{ n: number }>(
    `SELECT count(DISTINCT l.notification_id)::int AS n
       FROM chaos.ledger l, jsonb_to_recordset($1::jsonb) AS o("from" timestamptz, "to" timestamptz, unrecorded bigint[])
      WHERE l.accepted AND l.provider <> 'oauth'
        AND (l.notification_id = ANY(o.unrecorded) OR l.at BETWEEN o."from" AND o."to")`,
    [JSON.stringify(outages)],
  );
  return rows[0]!.n;
}
