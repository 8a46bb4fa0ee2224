import { describe, expect, it } from "vitest";
import { reapGate } from "../src/workers/reap-gate.ts";

describe("the reap gate", () => {
  it("opens once this process's beats have reached the database for a whole silence, and closes on a failed beat", () => {
    let now = 0;
    const gate = reapGate(2_000, () => now);
    expect(gate.open()).toBe(false);
    gate.beatSucceeded();
    now = 1_999;
    gate.beatSucceeded();
    expect(gate.open()).toBe(false);
    now = 2_000;
    expect(gate.open()).toBe(true);

    // The database went away: every heartbeat, this one's too, is going stale.
    gate.beatFailed();
    expect(gate.open()).toBe(false);
    now = 10_000;
    gate.beatSucceeded();
    now = 11_500;
    gate.beatSucceeded();
    expect(gate.open()).toBe(false);
    now = 12_000;
    expect(gate.open()).toBe(true);
  });
});
