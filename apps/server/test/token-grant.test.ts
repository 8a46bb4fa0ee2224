import { describe, expect, it } from "vitest";
import { TOKEN_STALE_MS, TokenGrant } from "../src/dispatch/token-grant.ts";
import type { OutboundMessage } from "../src/providers/provider.ts";

const message = (id: string): OutboundMessage => ({ notificationId: id, channel: "email", lane: "bulk", to: `${id}@example.com`, body: "Hi", data: {} });

/** A grant on a hand-moved clock whose bucket updates are recorded and answered by `answer`. */
function grantOf(granted: number, answer: (wanted: number, returned: number) => Promise<{ granted: number }>) {
  const clock = { now: 0 };
  const takes: Array<{ wanted: number; returned: number }> = [];
  const unreachable: unknown[] = [];
  const grant = new TokenGrant(
    (wanted, returned) => {
      takes.push({ wanted, returned });
      return answer(wanted, returned);
    },
    granted,
    (error) => unreachable.push(error),
    () => clock.now,
  );
  return { grant, clock, takes, unreachable };
}

describe("a batch's token grant", () => {
  it("hands a fresh token to each message at once, without touching the bucket", () => {
    const { grant, clock, takes } = grantOf(3, async () => ({ granted: 0 }));
    expect(grant.permit(message("a"))).toBe(true);
    clock.now = TOKEN_STALE_MS;
    expect(grant.permit(message("b"))).toBe(true);
    expect(grant.permit(message("c"))).toBe(true);
    expect(takes).toEqual([]);
  });

  it("hands stale tokens back and takes fresh ones for every message still to start, in one update shared by those asking", async () => {
    const { grant, clock, takes } = grantOf(4, async (wanted) => ({ granted: wanted }));
    expect(grant.permit(message("a"))).toBe(true);
    clock.now = TOKEN_STALE_MS + 1;
    const asking = [grant.permit(message("b")), grant.permit(message("c"))];
    expect(asking.every((p) => p instanceof Promise)).toBe(true);
    expect(await Promise.all(asking)).toEqual([true, true]);
    expect(takes).toEqual([{ wanted: 3, returned: 3 }]);
    // Renewed at the refresh: the last message's token is fresh again.
    expect(grant.permit(message("d"))).toBe(true);
    expect(takes).toHaveLength(1);
  });

  it("refuses what a renewal did not grant, and names the messages refused", async () => {
    const { grant, clock } = grantOf(3, async () => ({ granted: 1 }));
    clock.now = TOKEN_STALE_MS + 1;
    expect(await Promise.all(["a", "b", "c"].map((id) => grant.permit(message(id))))).toEqual([true, false, false]);
    expect([...grant.refused]).toEqual(["b", "c"]);
  });

  it("refuses, rather than throws, when the bucket cannot be reached: calls already answered keep their answers", async () => {
    const { grant, clock, unreachable } = grantOf(2, () => Promise.reject(new Error("connect ECONNREFUSED")));
    clock.now = TOKEN_STALE_MS + 1;
    expect(await grant.permit(message("a"))).toBe(false);
    expect(grant.permit(message("b"))).toBe(false);
    expect([...grant.refused]).toEqual(["a", "b"]);
    expect(unreachable).toEqual([new Error("connect ECONNREFUSED")]);
  });
});
