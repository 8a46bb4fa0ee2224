import { describe, expect, it } from "vitest";
import { DISPATCH_STATE_MEANINGS, DISPATCH_STATES, STATUSES, advanceStatus, isSettled, statusRank, type Status } from "../src/notifications/status.ts";

describe("statusRank", () => {
  it("orders pending < sent < delivery results < engine verdicts", () => {
    expect(STATUSES.map((status) => [status, statusRank(status)])).toEqual([
      ["pending", 0],
      ["sent", 1],
      ["delivered", 2],
      ["failed", 2],
      ["bounced", 2],
      ["skipped", 9],
      ["dead", 9],
      ["canceled", 9],
    ]);
  });
});

describe("isSettled", () => {
  it("is true for everything but pending", () => {
    expect(STATUSES.filter((status) => !isSettled(status))).toEqual(["pending"]);
  });
});

describe("advanceStatus", () => {
  const at = (status: Status, time: string | null = "2026-12-01T10:00:00Z") => ({ status, at: time === null ? null : new Date(time) });

  it("moves forward when the incoming status ranks higher", () => {
    expect(advanceStatus(at("pending"), at("sent"))).toBe("sent");
    expect(advanceStatus(at("sent"), at("delivered"))).toBe("delivered");
    expect(advanceStatus(at("delivered"), at("dead"))).toBe("dead");
  });

  it("ignores a late 'sent' webhook that arrives after 'delivered'", () => {
    expect(advanceStatus(at("delivered", "2026-12-01T10:00:00Z"), at("sent", "2026-12-01T11:00:00Z"))).toBe("delivered");
  });

  it("between outcomes of one rank, keeps what happened last whichever arrives first", () => {
    const delivery = at("delivered", "2026-12-01T10:00:00Z");
    const asyncBounce = at("bounced", "2026-12-01T10:00:05Z");
    expect(advanceStatus(delivery, asyncBounce)).toBe("bounced");
    expect(advanceStatus(asyncBounce, delivery)).toBe("bounced");
    expect(advanceStatus(at("failed", "2026-12-01T10:00:05Z"), at("delivered", "2026-12-01T10:00:00Z"))).toBe("failed");
  });

  it("at the same instant the worse news wins, in either order; without a time the row keeps its own", () => {
    expect(advanceStatus(at("delivered"), at("failed"))).toBe("failed");
    expect(advanceStatus(at("failed"), at("delivered"))).toBe("failed");
    expect(advanceStatus(at("failed"), at("bounced"))).toBe("bounced");
    expect(advanceStatus(at("bounced"), at("failed"))).toBe("bounced");
    expect(advanceStatus(at("delivered", null), at("bounced"))).toBe("delivered");
    expect(advanceStatus(at("delivered"), at("bounced", null))).toBe("delivered");
  });

  it("never revives a dead or canceled notification", () => {
    expect(advanceStatus(at("dead"), at("delivered", "2026-12-01T11:00:00Z"))).toBe("dead");
    expect(advanceStatus(at("canceled"), at("sent", "2026-12-01T11:00:00Z"))).toBe("canceled");
    expect(advanceStatus(at("skipped"), at("dead", "2026-12-01T11:00:00Z"))).toBe("skipped");
  });
});

describe("DISPATCH_STATE_MEANINGS", () => {
  it("has one line for every dispatch state", () => {
    expect(Object.keys(DISPATCH_STATE_MEANINGS)).toEqual([...DISPATCH_STATES]);
    expect(DISPATCH_STATE_MEANINGS.retry_wait).toBe("an attempt failed transiently; waiting for the next one");
  });
});
