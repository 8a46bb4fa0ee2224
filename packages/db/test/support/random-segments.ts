import type { Channel, Rule, RuleCondition } from "@herald/core";
import type { Population, PopulationUser } from "./segment-population.ts";

/**
 * Seeded randomness for the segment property test: populations and rule trees drawn from the
 * same small pools of names and values, so conditions match often, and laced with the awkward
 * cases (wrong types, impossible dates, offsets, exact window boundaries, JSON null).
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

const int = (random: Random, n: number) => Math.floor(random() * n);
const pick = <T>(random: Random, items: readonly T[]): T => items[int(random, items.length)]!;
const chance = (random: Random, p: number) => random() < p;
const DAY_MS = 86_400_000;
// Few distinct ages, so equality and "in" on numbers match often.
const age = (random: Random) => 25 + int(random, 20);

const PLANS = ["free", "pro", "team", "PRO", "pro ", "é-plan"] as const;
const TAGS = ["a", "b", "c", "yoga"] as const;
const WORDS = ["yoga", "run", "Yoga", "stretch", "ünï", "50%", "a_b"] as const;
const ACTIVITIES = ["session_completed", "purchase", "app_opened"] as const;
const WINDOWS = [1, 7, 30] as const;
const LOCALES = ["en", "de", "pt-BR", "fr"] as const;
const ZONES = ["Europe/Berlin", "America/New_York", "UTC"] as const;
const DOMAINS = ["acme.com", "example.com", "mail.test"] as const;

/** Attribute names the rules ask about: flat, nested, dotted-flat, indexed into a list, absent. */
const ATTRIBUTE_NAMES = ["plan", "age", "tags", "bio", "vip", "last_test_at", "address.city", "billing.cycle", "tags.0", "missing"] as const;

function dateText(random: Random, now: Date): unknown {
  const instant = new Date(now.getTime() - (int(random, 90) - 10) * DAY_MS - int(random, 24) * 3_600_000);
  const iso = instant.toISOString();
  switch (int(random, 9)) {
    case 0:
      return iso.slice(0, 10);
    case 1:
      return iso;
    case 2:
      return `${iso.slice(0, 16)}+02:00`;
    case 3:
      return `${iso.slice(0, 19)}.123456-0530`;
    case 4:
      return iso.slice(0, 16);
    case 5:
      return pick(random, [
        "2026-02-30",
        "2026-13-01",
        "soon",
        "0000-01-01",
        "2026-11-30T24:00",
        "2024-02-29",
        "2023-02-29",
        "2026-11-29T09:00:00.00xZ",
        "2026-11-29T23:59:60.000Z",
        "2026-11-29T09:00:00.000+00:00",
        "2026-11-29T09:00:00+15:59",
        "2026-11-29T09:00:00+16:00",
      ]);
    case 6:
      return 20261130;
    case 7:
      // Exactly on a 30-day or 7-day cut-off.
      return new Date(now.getTime() - pick(random, [7, 30]) * DAY_MS).toISOString();
    default:
      // Exactly now: the inclusive end of "within the last N days".
      return now.toISOString();
  }
}

function randomAttributes(random: Random, now: Date): Record<string, unknown> {
  const a: Record<string, unknown> = {};
  if (chance(random, 0.8)) a.plan = chance(random, 0.9) ? pick(random, PLANS) : pick(random, [3, true, null, ["pro"]]);
  if (chance(random, 0.7)) a.age = chance(random, 0.85) ? age(random) + pick(random, [0, 0, 0.5]) : pick(random, ["36", "x"]);
  if (chance(random, 0.6)) a.tags = chance(random, 0.8) ? TAGS.filter(() => chance(random, 0.4)) : pick(random, TAGS);
  if (chance(random, 0.5)) a.bio = Array.from({ length: 1 + int(random, 3) }, () => pick(random, WORDS)).join(" ");
  if (chance(random, 0.4)) a.vip = chance(random, 0.5);
  if (chance(random, 0.7)) a.last_test_at = dateText(random, now);
  if (chance(random, 0.3)) a.address = chance(random, 0.8) ? { city: pick(random, ["London", "Paris", "yoga"]) } : "London";
  if (chance(random, 0.2)) a["address.city"] = "Rome";
  if (chance(random, 0.3)) a["billing.cycle"] = pick(random, ["yearly", "monthly"]);
  return a;
}

function randomUser(random: Random, index: number, now: Date): PopulationUser {
  const activities = Array.from({ length: int(random, 7) }, () => {
    const boundary = chance(random, 0.15);
    const days = boundary ? pick(random, WINDOWS) : random() * 45;
    // A boundary activity sits exactly on a window's start, or one millisecond before it.
    const offset = boundary && chance(random, 0.5) ? 1 : 0;
    return { name: pick(random, ACTIVITIES), occurredAt: new Date(now.getTime() - days * DAY_MS - offset) };
  });
  return {
    externalId: `p${index}`,
    email: chance(random, 0.75) ? `user${index}@${pick(random, DOMAINS)}` : null,
    phone: chance(random, 0.4) ? `+49151${String(10_000_000 + index)}` : null,
    locale: chance(random, 0.7) ? pick(random, LOCALES) : null,
    timezone: chance(random, 0.5) ? pick(random, ZONES) : null,
    attributes: randomAttributes(random, now),
    devices: Array.from({ length: int(random, 3) }, (_, d) => ({ token: `tok-${index}-${d}`, active: chance(random, 0.7) })),
    activities,
  };
}

/** A population of `size` users with a few suppressed addresses and tokens among them. */
export function randomPopulation(random: Random, size: number, now: Date): Population {
  const users = Array.from({ length: size }, (_, i) => randomUser(random, i, now));
  const suppressions: Array<{ channel: Channel; address: string }> = [];
  for (const user of users) {
    if (user.email && chance(random, 0.2)) suppressions.push({ channel: "email", address: user.email });
    if (user.phone && chance(random, 0.2)) suppressions.push({ channel: "sms", address: user.phone });
    for (const device of user.devices ?? []) if (chance(random, 0.15)) suppressions.push({ channel: "push", address: device.token });
  }
  return { users, suppressions };
}

function randomScalar(random: Random): string | number | boolean {
  return pick(random, [pick(random, PLANS), age(random), 36.5, true, false, "36", "London", "Rome", "yearly", "a"]);
}

function randomCondition(random: Random, segmentIds: readonly string[]): RuleCondition {
  const attribute = pick(random, ATTRIBUTE_NAMES);
  const activity = pick(random, ACTIVITIES);
  const dateValue = () => (chance(random, 0.5) ? { daysAgo: pick(random, [0, 7, 30, 45]) } : pick(random, ["2026-11-01", "2026-10-31T12:00:00Z", "2026-11-20T09:00+01:00"]));
  switch (int(random, segmentIds.length > 0 ? 21 : 20)) {
    case 0:
      return { kind: "attribute", attribute, op: "eq", value: randomScalar(random) };
    case 1:
      return { kind: "attribute", attribute, op: "ne", value: randomScalar(random) };
    case 2:
      return { kind: "attribute", attribute: pick(random, ["age", "age", attribute]), op: pick(random, ["lt", "gt"] as const), value: pick(random, [18, 30, 36, 36.5, 44, -1]) };
    case 3:
      return { kind: "attribute", attribute: pick(random, ["tags", "bio", attribute]), op: "contains", value: pick(random, [...TAGS, ...WORDS, "o", "ondo", "pro"]) };
    case 4:
      return { kind: "attribute", attribute: pick(random, ["plan", "tags", "age", attribute]), op: "in", value: Array.from({ length: 1 + int(random, 3) }, () => pick(random, [...PLANS, ...TAGS, age(random), age(random), 3, "London"])) };
    case 5:
      return { kind: "attribute", attribute, op: "exists" };
    case 6:
      return { kind: "attribute", attribute: pick(random, ["last_test_at", "last_test_at", attribute]), op: pick(random, ["before", "after"] as const), value: dateValue() };
    case 7:
      return { kind: "attribute", attribute: pick(random, ["last_test_at", attribute]), op: "within_last", value: pick(random, [1, 7, 30, 60]) };
    case 8: {
      const field = pick(random, ["email", "phone", "locale", "timezone", "external_id"] as const);
      const values = [...LOCALES, ...ZONES, "user1@acme.com", "p3", "@acme", "+49151"];
      const op = pick(random, ["eq", "ne", "contains", "in", "exists"] as const);
      if (op === "exists") return { kind: "profile", field, op };
      if (op === "in") return { kind: "profile", field, op, value: [pick(random, values), pick(random, values)] };
      return { kind: "profile", field, op, value: pick(random, values) };
    }
    case 9:
    case 10:
      return chance(random, 0.5)
        ? { kind: "activity", activity, op: "did", atLeast: pick(random, [1, 1, 2, 3]) }
        : { kind: "activity", activity, op: "did", atLeast: pick(random, [1, 2, 3]), withinDays: pick(random, WINDOWS) };
    case 11:
      return { kind: "activity", activity, op: "did_not", withinDays: pick(random, WINDOWS) };
    case 12:
      return { kind: "activity", activity, op: "never" };
    case 13:
      return { kind: "has_active_device" };
    case 14:
      return { kind: "has_email" };
    case 15:
      return { kind: "has_phone" };
    case 16:
    case 17:
      return { kind: "not_suppressed", channel: pick(random, ["push", "email", "sms"] as const) };
    case 18:
    case 19:
      // The common marketer's condition, so plain plan filters get their share of the trees.
      return chance(random, 0.5)
        ? { kind: "attribute", attribute: "plan", op: "eq", value: pick(random, PLANS) }
        : { kind: "attribute", attribute: "plan", op: "in", value: ["pro", "free"] };
    default:
      return { kind: "segment", segmentId: pick(random, segmentIds) };
  }
}

/** A random tree at most `depth` levels deep (the root counts), naming only `segmentIds`. */
export function randomRule(random: Random, depth: number, segmentIds: readonly string[] = []): Rule {
  if (depth <= 1 || chance(random, 0.35)) return randomCondition(random, segmentIds);
  switch (int(random, 3)) {
    case 0:
      return { kind: "not", child: randomRule(random, depth - 1, segmentIds) };
    default:
      return {
        kind: chance(random, 0.5) ? "and" : "or",
        children: Array.from({ length: int(random, 4) }, () => randomRule(random, depth - 1, segmentIds)),
      };
  }
}
