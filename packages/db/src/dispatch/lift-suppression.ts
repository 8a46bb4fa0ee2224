import type { Sql } from "../sql.ts";
import type { Suppression } from "./side-effects.ts";

/**
 * Lifts one suppression, and only if it is for `reason`: a START reply lifts the STOP it answers,
 * never a hard bounce or an operator's manual block on the same number. True when one was lifted.
 */
export async function liftSuppression(
  sql: Sql,
  suppression: Pick<Suppression, "channel" | "address" | "reason">,
): Promise<boolean> {
  const { rowCount } = await sql.query("DELETE FROM herald.suppressions WHERE channel = $1 AND address = $2 AND reason = $3", [
    suppression.channel,
    suppression.address,
    suppression.reason,
  ]);
  return (rowCount ?? 0) > 0;
}
