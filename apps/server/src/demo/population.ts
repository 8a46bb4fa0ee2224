import type { DemoActivity, DemoDevice, DemoQuietHours, DemoUser } from "@herald/db";
import type { DemoRandom } from "./demo-random.ts";

const DAY = 86_400_000;

/** Where the demo's users live: a zone, its weight, the locale and the phone numbers there. */
const REGIONS: ReadonlyArray<readonly [{ tz: string | null; locale: string; country: string; phone: (r: DemoRandom) => string }, number]> = [
  [{ tz: "America/New_York", locale: "en", country: "US", phone: usPhone }, 15],
  [{ tz: "America/Chicago", locale: "en", country: "US", phone: usPhone }, 8],
  [{ tz: "America/Denver", locale: "en", country: "US", phone: usPhone }, 3],
  [{ tz: "America/Los_Angeles", locale: "en", country: "US", phone: usPhone }, 10],
  [{ tz: "America/Toronto", locale: "en", country: "CA", phone: usPhone }, 3],
  [{ tz: "America/Mexico_City", locale: "es", country: "MX", phone: (r) => `+5255${digits(r, 8)}` }, 4],
  [{ tz: "America/Sao_Paulo", locale: "pt", country: "BR", phone: (r) => `+55119${digits(r, 8)}` }, 6],
  [{ tz: "Europe/London", locale: "en", country: "GB", phone: (r) => `+447${digits(r, 9)}` }, 9],
  [{ tz: "Europe/Berlin", locale: "de", country: "DE", phone: (r) => `+4915${digits(r, 9)}` }, 8],
  [{ tz: "Europe/Paris", locale: "fr", country: "FR", phone: (r) => `+336${digits(r, 8)}` }, 5],
  [{ tz: "Europe/Madrid", locale: "es", country: "ES", phone: (r) => `+346${digits(r, 8)}` }, 4],
  [{ tz: "Africa/Lagos", locale: "en", country: "NG", phone: (r) => `+23480${digits(r, 8)}` }, 2],
  [{ tz: "Asia/Kolkata", locale: "en", country: "IN", phone: (r) => `+919${digits(r, 9)}` }, 6],
  [{ tz: "Asia/Singapore", locale: "en", country: "SG", phone: (r) => `+658${digits(r, 7)}` }, 2],
  [{ tz: "Asia/Tokyo", locale: "ja", country: "JP", phone: (r) => `+8190${digits(r, 8)}` }, 3],
  [{ tz: "Australia/Sydney", locale: "en", country: "AU", phone: (r) => `+614${digits(r, 8)}` }, 3],
  // No zone of their own: the workspace default applies.
  [{ tz: null, locale: "en", country: "US", phone: usPhone }, 5],
];

const FIRST = ["Ada", "Grace", "Alan", "Linus", "Margaret", "Ken", "Barbara", "Dennis", "Frances", "Edsger", "Radia", "Tim", "Hedy", "John", "Katherine", "Donald", "Mary", "Guido", "Sophie", "Yukihiro", "Anita", "Bjarne", "Lovelace", "Joan", "Ravi", "Ines", "Mateo", "Lena", "Noah", "Amara", "Chen", "Priya"];
const LAST = ["Lovelace", "Hopper", "Turing", "Torvalds", "Hamilton", "Thompson", "Liskov", "Ritchie", "Allen", "Dijkstra", "Perlman", "Berners", "Lamarr", "McCarthy", "Johnson", "Knuth", "Jackson", "Rossum", "Wilson", "Matsumoto", "Borg", "Stroustrup", "Clarke", "Kumar", "Garcia", "Schmidt", "Okafor", "Tanaka", "Silva", "Martin", "Nguyen", "Patel"];
const DOMAINS = ["example.com", "example.net", "example.org"];

function digits(r: DemoRandom, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += String(r.int(0, 9));
  return s;
}

function usPhone(r: DemoRandom): string {
  return `+1${r.int(201, 989)}${r.int(200, 999)}${digits(r, 4)}`;
}

/**
 * Sandbox identities (docs/providers.md): each makes the sandbox bounce, complain, reply or
 * refuse like SES and Twilio do for their test addresses, so suppressions and dead letters come
 * from real sends. Assigned by position, so even a few hundred users include each kind; shares
 * are those of a healthy list (1 % bounce, 0.1 % complain).
 */
function sandboxEmail(i: number, externalId: string): string | null {
  const mailbox = i % 1000 === 21 ? "complaint" : i % 100 === 2 ? "bounce" : i % 500 === 7 ? "suppressionlist" : i % 200 === 11 ? "ooto" : null;
  return mailbox ? `${mailbox}+${externalId}@simulator.amazonses.com` : null;
}

function sandboxPhone(i: number): string | null {
  return i % 300 === 5 ? "+15005550001" : i % 1000 === 9 ? "+15005550004" : i % 1000 === 19 ? "+15005550009" : null;
}

export interface Population {
  users: DemoUser[];
  devices: DemoDevice[];
  activities: DemoActivity[];
  quietHours: DemoQuietHours[];
  /** Users who joined within the simulated window: their welcome comes through the event path. */
  newcomers: Array<{ externalId: string; joinedAt: Date }>;
  /** Opted out of promotional email or of product push, as people do. */
  optOuts: Array<{ externalId: string; category: string; channel: "email" | "push"; at: string }>;
}

/** How often someone completes a session: the segments' presets read this behaviour. */
type Engagement = "daily" | "weekly" | "lapsed" | "never";

export function generatePopulation(r: DemoRandom, count: number, now: Date, days: number): Population {
  const out: Population = { users: [], devices: [], activities: [], quietHours: [], newcomers: [], optOuts: [] };
  for (let i = 1; i <= count; i++) {
    const externalId = `usr_${String(i).padStart(5, "0")}`;
    const region = r.weighted(REGIONS);
    const first = r.pick(FIRST);
    const last = r.pick(LAST);
    // One in ten joined inside the simulated window, the rest over the year before it.
    const joinedAt = r.chance(0.1) ? new Date(now.getTime() - r.next() * days * DAY) : new Date(now.getTime() - (days + r.next() * 365) * DAY);
    if (joinedAt.getTime() > now.getTime() - days * DAY) out.newcomers.push({ externalId, joinedAt });
    const testEmail = sandboxEmail(i, externalId);
    // Test identities are on the free plan: the winter sale reaches them even in a short history.
    const plan = testEmail ? "free" : r.weighted([["free", 70], ["pro", 25], ["team", 5]] as const);
    const email = testEmail ?? (r.chance(0.9) ? `${first}.${last}.${i}@${r.pick(DOMAINS)}`.toLowerCase() : null);
    const phone = sandboxPhone(i) ?? (r.chance(0.65) ? region.phone(r) : null);
    const attributes: Record<string, unknown> = { first_name: first, last_name: last, plan, country: region.country, signup_at: joinedAt.toISOString() };
    if (r.chance(0.6)) attributes.last_test_at = new Date(now.getTime() - r.next() * 90 * DAY).toISOString().slice(0, 10);
    out.users.push({ externalId, email, phone, timezone: region.tz, locale: region.locale, attributes, createdAt: joinedAt.toISOString() });

    if (r.chance(0.8)) {
      const deviceCount = r.chance(0.3) ? 2 : 1;
      for (let d = 0; d < deviceCount; d++) {
        const platform = r.weighted([["ios", 45], ["android", 45], ["web", 10]] as const);
        const createdAt = new Date(joinedAt.getTime() + r.next() * Math.max(0, now.getTime() - joinedAt.getTime()) * 0.5);
        // A few tokens FCM no longer knows: the first push to them deactivates them.
        const token = `${r.chance(0.015) ? "invalid-" : ""}${platform}-${digits(r, 24)}`;
        const uninstalled = r.chance(0.06);
        out.devices.push({
          externalId,
          token,
          platform,
          deactivatedReason: uninstalled ? r.pick(["uninstalled", "unregistered"]) : null,
          deactivatedAt: uninstalled ? new Date(createdAt.getTime() + r.next() * (now.getTime() - createdAt.getTime())).toISOString() : null,
          createdAt: createdAt.toISOString(),
        });
      }
    }

    const engagement = r.weighted<Engagement>([["daily", 20], ["weekly", 35], ["lapsed", 27], ["never", 18]]);
    addSessions(r, out.activities, externalId, engagement, joinedAt, now);
    if (r.chance(0.08)) {
      for (let p = r.int(1, 3); p > 0; p--) {
        const at = new Date(Math.max(joinedAt.getTime(), now.getTime() - 60 * DAY) + r.next() * 59 * DAY);
        if (at < now) out.activities.push({ externalId, name: "purchase_completed", occurredAt: at.toISOString(), properties: { amount_cents: r.pick([499, 999, 1999, 4999]) } });
      }
    }
    if (r.chance(0.06)) out.quietHours.push({ externalId, start: "22:00", end: "07:00" });
    const optOutAt = () => new Date(joinedAt.getTime() + r.next() * (now.getTime() - joinedAt.getTime())).toISOString();
    if (email && !testEmail && r.chance(0.04)) out.optOuts.push({ externalId, category: "promotions", channel: "email", at: optOutAt() });
    if (r.chance(0.02)) out.optOuts.push({ externalId, category: "product", channel: "push", at: optOutAt() });
  }
  return out;
}

/** Sessions over the last 60 days (from joining): lapsed users stop 8 to 40 days ago. */
function addSessions(r: DemoRandom, into: DemoActivity[], externalId: string, engagement: Engagement, joinedAt: Date, now: Date): void {
  if (engagement === "never") return;
  const start = Math.max(joinedAt.getTime(), now.getTime() - 60 * DAY);
  const end = engagement === "lapsed" ? now.getTime() - r.int(8, 40) * DAY : now.getTime();
  const meanGapDays = engagement === "daily" ? 4 : 10;
  for (let t = start + r.exponential(meanGapDays) * DAY; t < end; t += r.exponential(meanGapDays) * DAY) {
    into.push({ externalId, name: "session_completed", occurredAt: new Date(t).toISOString(), properties: { duration_s: r.int(60, 1800) } });
  }
}
