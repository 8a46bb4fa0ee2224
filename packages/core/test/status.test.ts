import { describe, expect, it } from "vitest";
import { DISPATCH_STATE_MEANINGS, DISPATCH_STATES, STATUSES, advanceStatus, isSettled, statusRank } from "../src/notifications/status.ts";

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
  it("moves forward when the incoming status ranks higher", () => {
    expect(advanceStatus("pending", "sent")).toBe("sent");
    expect(advanceStatus("sent", "delivered")).toBe("delivered");
    expect(advanceStatus("delivered", "dead")).toBe("dead");
  });

  it("ignores a late 'sent' webhook that arrives after 'delivered'", () => {
    expect(advanceStatus("delivered", "sent")).toBe("delivered");
  });

  it("keeps the first of two statuses with the same rank", () => {
    expect(advanceStatus("delivered", "failed")).toBe("delivered");
    expect(advanceStatus("bounced", "delivered")).toBe("bounced");
  });

  it("never revives a dead or canceled notification", () => {
    expect(advanceStatus("dead", "delivered")).toBe("dead");
    expect(advanceStatus("canceled", "sent")).toBe("canceled");
    expect(advanceStatus("skipped", "dead")).toBe("skipped");
  });
});

describe("DISPATCH_STATE_MEANINGS", () => {
  it("has one line for every dispatch state", () => {
    expect(Object.keys(DISPATCH_STATE_MEANINGS)).toEqual([...DISPATCH_STATES]);
    expect(DISPATCH_STATE_MEANINGS.retry_wait).toBe("an attempt failed transiently; waiting for the next one");
  });
});
