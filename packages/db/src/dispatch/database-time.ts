import type { Sql } from "../sql.ts";

/** The database server's clock now: the one every worker schedules by, whatever its own says. */
export async function databaseTime(sql: Sql): Promise<Date> {
  const { rows } = await sql.query<{ now: Date }>("SELECT clock_timestamp() AS now");
  return rows[0]!.now;
}
