import pg from "pg";
import { surviveServerLoss, type Sql } from "../sql.ts";
import { evaluateGates, type GateTuple, type GateVerdict } from "./gates.ts";

/** Whose consent a send relies on: its user, and each address it goes to (email, phone or push tokens). */
export interface ConsentSubject {
  userId: string;
  addresses: readonly string[];
}

/**
 * A batch's consent keys held for sharing, from a second look at the gates until its provider
 * calls have been answered. A suppression, an opt-out or a device switched off takes the same
 * keys exclusively (triggers in the consent_holds migration), so it commits either before that
 * look, which then sees it, or after the calls: never in between (decision 0019).
 */
export interface ConsentHold {
  /** Per subject: whether every key it needs is held. A writer at work on one makes it false. */
  readonly held: readonly boolean[];
  /**
   * Aborts when the hold's connection is lost (a restart, a terminated backend, an idle-session
   * timeout): its keys are free again, so the batch must make no further call.
   */
  readonly lost: AbortSignal;
  /** The gates again, read under the hold. */
  gates(tuples: readonly GateTuple[], now: Date, defaultTimezone: string): Promise<GateVerdict[]>;
  /** Lets the writers waiting on these keys commit. Call it once the calls have been answered. */
  release(): Promise<void>;
}

export type HoldConsent = (subjects: readonly ConsentSubject[]) => Promise<ConsentHold>;

/**
 * Holds run on a pool of their own: a hold keeps its connection for as long as the calls take,
 * and on the shared pool enough running batches would leave their own result writes (and the
 * sandbox's) waiting for a connection that only they could free.
 */
export function openConsentPool(url: string, size: number): pg.Pool {
  return surviveServerLoss(new pg.Pool({ connectionString: url, max: size, application_name: "herald-consent", connectionTimeoutMillis: 10_000 }));
}

export function consentHolds(pool: pg.Pool): HoldConsent {
  return async (subjects) => {
    const client = await pool.connect();
    const lost = new AbortController();
    const onError = (error: Error) => lost.abort(error);
    client.on("error", onError);
    let open = true;
    const end = async (statement: "COMMIT" | "ROLLBACK") => {
      if (!open) return;
      open = false;
      client.off("error", onError);
      try {
        await client.query(statement);
        client.release();
      } catch (error) {
        // A connection that cannot end its transaction is not handed to anyone else.
        client.release(error as Error);
      }
    };
    try {
      await client.query("BEGIN");
      const ords: number[] = [];
      const kinds: string[] = [];
      const values: string[] = [];
      subjects.forEach((s, i) => {
        ords.push(i);
        kinds.push("user");
        values.push(s.userId);
        for (const address of s.addresses) {
          ords.push(i);
          kinds.push("address");
          values.push(address);
        }
      });
      const { rows } = await client.query<{ ord: number; held: boolean }>({
        name: "herald_hold_consent",
        text: "SELECT ord, held FROM herald.hold_consent($1::int[], $2::text[], $3::text[])",
        values: [ords, kinds, values],
      });
      const held = subjects.map(() => false);
      for (const r of rows) held[r.ord] = r.held;
      return {
        held,
        lost: lost.signal,
        gates: (tuples, now, defaultTimezone) => evaluateGates(client, tuples, now, defaultTimezone),
        release: () => end("COMMIT"),
      };
    } catch (error) {
      await end("ROLLBACK");
      throw error;
    }
  };
}

/**
 * For a caller whose every read and write runs on one connection inside one transaction (the
 * demo's simulated history): the second look runs there too, where its own uncommitted rows are
 * visible. It holds no keys, so it is for that caller only.
 */
export function consentHoldsWithin(sql: Sql): HoldConsent {
  return async (subjects) => ({
    held: subjects.map(() => true),
    lost: new AbortController().signal,
    gates: (tuples, now, defaultTimezone) => evaluateGates(sql, tuples, now, defaultTimezone),
    release: async () => undefined,
  });
}
