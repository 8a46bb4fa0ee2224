import { deactivateDevice, registerDevice } from "../audience/devices.ts";
import { setPreferences } from "../audience/preferences.ts";
import { setQuietHours } from "../audience/quiet-hours.ts";
import { upsertUser } from "../audience/users.ts";
import { upsertCategory } from "../config/categories.ts";
import { upsertNotificationType } from "../config/notification-types.ts";
import { suppressAddresses } from "../dispatch/side-effects.ts";
import type { Sql } from "../sql.ts";

/** A clock window that holds `now` in UTC, whatever the hour the test runs at. */
export function quietWindowAround(now: Date): { start: string; end: string } {
  const hour = now.getUTCHours();
  const pad = (h: number) => `${String((h + 24) % 24).padStart(2, "0")}:00`;
  return { start: pad(hour - 1), end: pad(hour + 2) };
}

/**
 * The support pages' workspace: categories (one mandatory, one capped), a type on every channel,
 * and users each stopped by one gate — or by none.
 */
export async function seedSupportWorkspace(sql: Sql): Promise<void> {
  await upsertCategory(sql, "marketing", { label: "Marketing" });
  // Not mandatory yet: ada opts out of it below, before it becomes mandatory.
  await upsertCategory(sql, "security", { label: "Security" });
  await upsertCategory(sql, "digest", { label: "Digest", frequencyCap: { max: 1, windowSeconds: 86_400, action: "skip" } });
  await upsertCategory(sql, "news", { label: "News", defaults: { email: false } });
  const content = {
    email: { subject: "Hello", body: "News for you" },
    sms: { body: "News for you" },
    push: { title: "News", body: "For you" },
  };
  await upsertNotificationType(sql, "promo.weekly", [
    { channel: "email", category: "marketing", content: content.email },
    { channel: "sms", category: "marketing", content: content.sms },
    { channel: "push", category: "marketing", content: content.push },
  ]);
  await upsertNotificationType(sql, "security.login", [{ channel: "email", category: "security", lane: "critical", content: content.email }]);
  await upsertNotificationType(sql, "digest.daily", [{ channel: "email", category: "digest", content: content.email }]);

  // ada: reachable everywhere, opted out of marketing email through the unsubscribe link.
  await upsertUser(sql, "ada", { email: "Ada.Lovelace@example.com", phone: "+4915112345678", timezone: "Europe/Berlin", attributes: { plan: "pro" } });
  await registerDevice(sql, "ada", "ada-phone", "ios");
  await registerDevice(sql, "ada", "ada-old-tablet", "android");
  await deactivateDevice(sql, "ada", "ada-old-tablet", "unregistered");
  await setPreferences(sql, "ada", [{ category: "marketing", channel: "email", enabled: false }], "unsubscribe_link");
  await setPreferences(sql, "ada", [{ category: "security", channel: "email", enabled: false }], "api");
  await upsertCategory(sql, "security", { label: "Security", mandatory: true });
  // bob: his number answered STOP, his email bounced; no device.
  await upsertUser(sql, "bob", { email: "bob@example.com", phone: "+4917000000001" });
  await suppressAddresses(sql, [
    { channel: "sms", address: "+4917000000001", reason: "stop", source: "twilio" },
    { channel: "email", address: "bob@example.com", reason: "hard_bounce", source: "ses" },
  ]);
  // cleo: quiet hours right now, in UTC.
  await upsertUser(sql, "cleo", { email: "cleo@example.com" });
  await setQuietHours(sql, "cleo", { ...quietWindowAround(new Date()), timezone: "UTC" });
  // dan: nothing on file but an id.
  await upsertUser(sql, "dan", {});
}
