import { describe, expect, it } from "vitest";
import { evaluateRule, type SegmentSubject } from "../../src/segments/evaluate-rule.ts";
import { parseRule } from "../../src/segments/parse-rule.ts";
import { SEGMENT_PRESETS } from "../../src/segments/segment-presets.ts";

const NOW = new Date("2026-11-30T12:00:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);

function user(externalId: string, facts: Partial<SegmentSubject>): SegmentSubject {
  return { externalId, email: null, phone: null, locale: null, timezone: null, attributes: {}, activeDeviceTokens: ["t"], activities: [], ...facts };
}

/** The seed's cast: each preset must pick exactly the users its description names. */
const USERS = [
  user("active", { activities: [{ name: "session_completed", occurredAt: daysAgo(1) }], attributes: { last_test_at: "2026-11-20" } }),
  user("lapsed", { activities: [{ name: "session_completed", occurredAt: daysAgo(9) }], attributes: { last_test_at: "2026-09-01" } }),
  user("never", { activities: [{ name: "app_opened", occurredAt: daysAgo(1) }] }),
  user("no-device", { activeDeviceTokens: [], activities: [{ name: "session_completed", occurredAt: daysAgo(30) }], attributes: { last_test_at: "2026-01-01" } }),
];

describe("SEGMENT_PRESETS", () => {
  it("are ordinary rules that parse unchanged", () => {
    for (const preset of SEGMENT_PRESETS) expect(parseRule(preset.rule)).toEqual({ ok: true, rule: preset.rule });
  });

  it("select the users the seed's segments did", () => {
    const members = Object.fromEntries(
      SEGMENT_PRESETS.map((preset) => [
        preset.key,
        USERS.filter((u) => evaluateRule(preset.rule, u, { now: NOW, isSuppressed: () => false, resolveSegment: () => null })).map((u) => u.externalId),
      ]),
    );
    expect(members).toEqual({
      all_with_device: ["active", "lapsed", "never"],
      inactive_7d: ["lapsed"],
      never_sessioned: ["never"],
      test_due: ["lapsed"],
    });
  });
});
