import type { EventInput } from "@herald/db";
import type { DemoRandom } from "./demo-random.ts";
import type { Population } from "./population.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** One simulated hour: its events, received at `at`. */
export interface TrafficSlot {
  at: Date;
  events: EventInput[];
}

/** Each zone's offset from UTC now, in minutes: good enough to put events in people's daytime. */
function offsetMinutes(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Math.round((Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute")) - Math.floor(at.getTime() / MINUTE) * MINUTE) / MINUTE);
}

/** When people are awake and using the app, as weights per local hour. */
const LOCAL_HOURS: ReadonlyArray<readonly [number, number]> = [
  [7, 3], [8, 6], [9, 7], [10, 6], [11, 6], [12, 8], [13, 7], [14, 5], [15, 5], [16, 6], [17, 7], [18, 9], [19, 10], [20, 10], [21, 8], [22, 5], [23, 2], [0, 1], [6, 1],
];

const CARRIERS = ["DHL", "UPS", "FedEx", "Royal Mail", "La Poste", "Correios"];
const LESSONS = ["Past tense in 10 minutes", "Ordering at a café", "Numbers 1 to 100", "Small talk at work", "Directions in the city", "Booking a hotel room"];

/**
 * The app's events over `days` days before `now`, in hourly slots, oldest first: orders
 * shipping, password resets, streak reminders (some twice a day, which the reminders' frequency
 * cap then skips), recommendations, the Monday digest at 09:00 local, and a welcome for each
 * newcomer at the moment they joined.
 */
export function planTraffic(r: DemoRandom, population: Population, now: Date, days: number): TrafficSlot[] {
  const start = now.getTime() - days * DAY;
  const users = population.users;
  const offsets = new Map<string | null, number>();
  for (const u of users) if (!offsets.has(u.timezone)) offsets.set(u.timezone, u.timezone ? offsetMinutes(u.timezone, now) : 0);
  const slots = new Map<number, Array<Omit<EventInput, "occurredAt">>>();
  let counter = 0;
  const add = (type: string, userId: string, at: number, data: Record<string, unknown>) => {
    if (at < start || at >= now.getTime() - HOUR) return;
    const slot = Math.floor(at / HOUR);
    let list = slots.get(slot);
    if (!list) slots.set(slot, (list = []));
    list.push({ eventId: `${type}-${++counter}`, type, userId, data });
  };
  /** A local wall-clock hour on UTC day `day` for this user, as an instant. */
  const localInstant = (tz: string | null, dayStart: number, hour: number) => dayStart + hour * HOUR - offsets.get(tz)! * MINUTE + r.int(0, 59) * MINUTE;

  const firstDay = Math.floor(start / DAY) * DAY;
  for (let dayStart = firstDay; dayStart < now.getTime(); dayStart += DAY) {
    const perDay = (rate: number) => Math.round(users.length * rate * (0.85 + r.next() * 0.3));
    for (let i = perDay(0.008); i > 0; i--) {
      const u = r.pick(users);
      add("order.shipped", u.externalId, localInstant(u.timezone, dayStart, r.weighted(LOCAL_HOURS)), { order_id: `A-${r.int(10_000, 99_999)}`, carrier: r.pick(CARRIERS) });
    }
    for (let i = perDay(0.004); i > 0; i--) {
      const u = r.pick(users);
      add("password.reset", u.externalId, localInstant(u.timezone, dayStart, r.weighted(LOCAL_HOURS)), { code: String(r.int(100_000, 999_999)) });
    }
    for (let i = perDay(0.02); i > 0; i--) {
      const u = r.pick(users);
      const at = localInstant(u.timezone, dayStart, r.int(17, 20));
      const streak = r.int(2, 60);
      add("streak.at_risk", u.externalId, at, { streak });
      if (r.chance(0.2)) add("streak.at_risk", u.externalId, at + r.int(2, 3) * HOUR, { streak });
    }
    for (let i = perDay(0.015); i > 0; i--) {
      const u = r.pick(users);
      add("lesson.recommended", u.externalId, localInstant(u.timezone, dayStart, r.weighted(LOCAL_HOURS)), { lesson: r.pick(LESSONS) });
    }
    if (new Date(dayStart).getUTCDay() === 1) {
      for (const [i, u] of users.entries()) {
        if (u.email && i % 10 < 2) add("digest.weekly", u.externalId, localInstant(u.timezone, dayStart, 9), { lessons: r.int(1, 12) });
      }
    }
  }
  for (const n of population.newcomers) add("user.signed_up", n.externalId, n.joinedAt.getTime(), {});

  // One instant per hour: ingest and dispatch are set-based, so a slot's events arrive together,
  // each a few seconds after it happened.
  return [...slots.entries()]
    .sort(([a], [b]) => a - b)
    .map(([slot, events]) => {
      const at = slot * HOUR + r.int(1, 59) * MINUTE;
      return { at: new Date(at), events: events.map((e) => ({ ...e, occurredAt: new Date(at - r.int(1, 20) * 1000).toISOString() })) };
    });
}
