import type { Sql } from "../sql.ts";

export interface GateTuple {
  userId: string;
  channel: string;
  category: string;
  lane: string;
}

/** herald.evaluate_gates' answer for one tuple. */
export interface GateVerdict {
  verdict: "send" | "skip" | "defer";
  reason: string | null;
  deferUntil: Date | null;
  address: string | null;
  tokens: string[] | null;
  detail: Record<string, unknown>;
}

/**
 * The send-time gates, set-based: preference → suppression → reachability → quiet hours →
 * frequency cap. Every send, dry run and Explain calls this one SQL function.
 */
export async function evaluateGates(sql: Sql, tuples: readonly GateTuple[], now: Date, defaultTimezone: string): Promise<GateVerdict[]> {
  if (tuples.length === 0) return [];
  const { rows } = await sql.query<{
    ord: number;
    verdict: GateVerdict["verdict"];
    reason: string | null;
    defer_until: Date | null;
    address: string | null;
    tokens: string[] | null;
    detail: Record<string, unknown>;
  }>({
    // Named, so each connection plans it once rather than on every batch (planning the inlined
    // function cost as much as running it).
    name: "herald_evaluate_gates",
    text: "SELECT * FROM herald.evaluate_gates($1::bigint[], $2::text[], $3::text[], $4::text[], $5, $6)",
    values: [tuples.map((t) => t.userId), tuples.map((t) => t.channel), tuples.map((t) => t.category), tuples.map((t) => t.lane), now, defaultTimezone],
  });
  return rows.map((r) => ({
    verdict: r.verdict,
    reason: r.reason,
    deferUntil: r.defer_until,
    address: r.address,
    tokens: r.tokens,
    detail: r.detail,
  }));
}
