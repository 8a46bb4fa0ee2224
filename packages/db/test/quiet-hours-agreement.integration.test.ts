import { isInQuietWindow, quietWindowEnd } from "@herald/core";
import { describe, expect, it } from "vitest";
import { evaluateGates } from "../src/dispatch/gates.ts";
import { useTestDatabase } from "./support/test-database.ts";

/** A seeded generator: the same samples on every run, so a failure is reproducible. */
function mulberry32(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ZONES = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Tokyo", "America/Sao_Paulo", "UTC", "Pacific/Chatham"];
// Instants near the 2026 transitions of those zones, where the two implementations could part.
const AROUND = ["2026-03-29T01:00:00Z", "2026-10-25T01:00:00Z", "2026-03-08T07:00:00Z", "2026-11-01T06:00:00Z", "2026-04-04T15:00:00Z", "2026-10-03T16:00:00Z", "2026-07-01T12:00:00Z"];

const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/**
 * The gates compute quiet hours in SQL (set-based, for sends and dry runs alike); core has the
 * same arithmetic for Explain and validation. On random windows around DST changes in zones
 * with odd offsets, both must say the same thing: inside or not, and until when.
 */
describe("quiet hours: the SQL gate and packages/core agree", () => {
  const test = useTestDatabase();

  it("on 300 random windows, zones and instants around DST transitions", async () => {
    const sql = test.db.pool;
    await sql.query("INSERT INTO herald.categories (key, label) VALUES ('news', 'News')");
    const random = mulberry32(20261130);
    const disagreements: string[] = [];
    let insideCount = 0;
    for (let i = 0; i < 300; i++) {
      const zone = ZONES[Math.floor(random() * ZONES.length)]!;
      const start = Math.floor(random() * 96) * 15;
      let end = Math.floor(random() * 96) * 15;
      if (end === start) end = (start + 60) % 1440;
      const now = new Date(Date.parse(AROUND[Math.floor(random() * AROUND.length)]!) + Math.floor((random() - 0.5) * 36 * 3_600_000));
      const { rows } = await sql.query<{ id: string }>(
        "INSERT INTO herald.users (external_id, email, timezone) VALUES ($1, 'q@example.com', $2) RETURNING id::text",
        [`q-${i}`, zone],
      );
      await sql.query("INSERT INTO herald.quiet_hours (user_id, start_time, end_time) VALUES ($1, $2, $3)", [rows[0]!.id, clock(start), clock(end)]);
      const [verdict] = await evaluateGates(sql, [{ userId: rows[0]!.id, channel: "email", category: "news", lane: "bulk" }], now, "UTC");
      const window = { start: clock(start), end: clock(end) };
      const inside = isInQuietWindow(now, window, zone);
      const until = quietWindowEnd(now, window, zone);
      const sqlInside = verdict!.reason === "quiet_hours";
      if (inside) insideCount += 1;
      if (inside !== sqlInside || (until?.toISOString() ?? null) !== (verdict!.deferUntil?.toISOString() ?? null)) {
        disagreements.push(`${zone} ${window.start}-${window.end} at ${now.toISOString()}: core ${inside} ${until?.toISOString()}, sql ${sqlInside} ${verdict!.deferUntil?.toISOString()}`);
      }
    }
    expect(disagreements).toEqual([]);
    // Both answers get exercised: a good share of the samples fall inside a window.
    expect(insideCount).toBeGreaterThan(60);
    expect(insideCount).toBeLessThan(240);
  });
});
