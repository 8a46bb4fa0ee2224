import { createHash, randomBytes } from "node:crypto";
import type pg from "pg";

/** A member of `role` and a session, as signing in makes them: the cookie carries the token, the table its SHA-256. */
export async function signInAs(pool: pg.Pool, role: "viewer" | "support"): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await pool.query(
    `WITH m AS (INSERT INTO herald.members (email, name, role, password_hash) VALUES ($2 || '@bench.example', 'Bench ' || $2, $2, '-') RETURNING id)
     INSERT INTO herald.sessions (id, member_id, expires_at) SELECT $1, m.id, now() + interval '1 day' FROM m`,
    [createHash("sha256").update(token).digest("hex"), role],
  );
  return `herald_session=${token}`;
}

/** One GET with the dashboard's cookie, timed to the end of the body; anything but 200 fails the run. */
export async function timedGet(url: string, cookie: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie } });
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${body.slice(0, 500)}`);
  return ms;
}

/** A tRPC query's URL: the procedure and its input as the dashboard's client sends them (GET, JSON in `input`). */
export function trpcQueryUrl(baseUrl: string, procedure: string, input?: unknown): string {
  return `${baseUrl}/trpc/${procedure}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;
}
