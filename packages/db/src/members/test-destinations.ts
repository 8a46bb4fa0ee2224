import type { Sql } from "../sql.ts";

/** Where "send test" delivers for one member: their sign-in email, and a phone and push token they set. */
export interface TestDestinations {
  email: string;
  phone: string | null;
  pushToken: string | null;
}

export async function findTestDestinations(sql: Sql, memberId: string): Promise<TestDestinations | null> {
  const { rows } = await sql.query("SELECT email, test_phone, test_push_token FROM herald.members WHERE id = $1", [memberId]);
  return rows[0] ? { email: rows[0].email, phone: rows[0].test_phone, pushToken: rows[0].test_push_token } : null;
}

export async function setTestDestinations(sql: Sql, memberId: string, to: { phone: string | null; pushToken: string | null }): Promise<void> {
  await sql.query("UPDATE herald.members SET test_phone = $2, test_push_token = $3 WHERE id = $1", [memberId, to.phone, to.pushToken]);
}
