import { describe, expect, it } from "vitest";
import { mapConcurrently } from "../src/providers/map-concurrently.ts";

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("mapConcurrently", () => {
  it("keeps at most `limit` calls in flight and answers in input order, each result also as it lands", async () => {
    let inFlight = 0;
    let most = 0;
    const landed: number[] = [];
    const results = await mapConcurrently(
      [5, 1, 4, 2, 3],
      2,
      async (n) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, n * 3));
        inFlight--;
        return n * 10;
      },
      { onResult: (index) => landed.push(index) },
    );
    expect(results).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
    expect(landed.toSorted()).toEqual([0, 1, 2, 3, 4]);
    expect(landed).not.toEqual([0, 1, 2, 3, 4]);
  });

  it("starts nothing once the signal aborts: the calls out finish, the rest answer notStarted", async () => {
    const stop = new AbortController();
    const called: number[] = [];
    const results = await mapConcurrently(
      [0, 1, 2, 3, 4, 5],
      2,
      async (n) => {
        called.push(n);
        if (n === 1) stop.abort("test");
        await tick();
        return `sent ${n}`;
      },
      { signal: stop.signal, notStarted: (n) => `not sent ${n}` },
    );
    expect(called).toEqual([0, 1]);
    expect(results).toEqual(["sent 0", "sent 1", "not sent 2", "not sent 3", "not sent 4", "not sent 5"]);
  });

  it("asks the permit right before each item starts: an item refused answers notStarted, the rest run", async () => {
    // Each item with how many calls had finished when it was asked.
    const asked: Array<[number, number]> = [];
    let finished = 0;
    const results = await mapConcurrently(
      [0, 1, 2, 3],
      2,
      async (n) => {
        await tick();
        finished++;
        return `sent ${n}`;
      },
      {
        // Asynchronous for odd items, as a permit that renews its tokens is.
        permit: (n) => (asked.push([n, finished]), n % 2 ? tick().then(() => n !== 3) : true),
        notStarted: (n) => `not sent ${n}`,
      },
    );
    expect(results).toEqual(["sent 0", "sent 1", "sent 2", "not sent 3"]);
    // Items 2 and 3 were asked for only once a lane came free: when their call would start.
    expect(asked).toEqual([
      [0, 0],
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
  });

  it("starts nothing the signal stopped while its permit was being decided", async () => {
    const stop = new AbortController();
    const called: number[] = [];
    const results = await mapConcurrently(
      [0, 1],
      1,
      async (n) => (called.push(n), `sent ${n}`),
      { signal: stop.signal, permit: (n) => (n === 1 ? tick().then(() => (stop.abort("test"), true)) : true), notStarted: (n) => `not sent ${n}` },
    );
    expect(called).toEqual([0]);
    expect(results).toEqual(["sent 0", "not sent 1"]);
  });

  it("runs every item when it has no notStarted answer, whatever the signal and the permit say", async () => {
    const stop = new AbortController();
    stop.abort("test");
    expect(await mapConcurrently([1, 2, 3], 1, async (n) => n, { signal: stop.signal, permit: () => false })).toEqual([1, 2, 3]);
  });
});
