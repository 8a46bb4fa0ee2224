import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admission } from "../src/http/admission.ts";

// A burst larger than the pool could serve waited in the pool's queue and was answered 503
// "the database is unavailable" (the chaos suite's load-burst). Admission refuses the excess at
// once with 429 overloaded, and frees its slot however a request ends.

describe("REST admission", () => {
  const gates: Array<() => void> = [];
  let url = "";
  let close = () => {};
  beforeAll(async () => {
    const app = express();
    app.use(admission(2));
    app.get("/slow", (_req, res) => void gates.push(() => res.json({ ok: true })));
    app.get("/fast", (_req, res) => void res.json({ ok: true }));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  async function untilHeld(n: number) {
    while (gates.length < n) await new Promise((r) => setTimeout(r, 5));
  }

  it("answers 429 overloaded with Retry-After beyond its limit, and admits again once a request is answered", async () => {
    const held = [fetch(`${url}/slow`), fetch(`${url}/slow`)];
    await untilHeld(2);
    const refused = await fetch(`${url}/fast`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toEqual({ error: { code: "overloaded", message: expect.any(String) } });

    gates.shift()!();
    expect((await held[0]!).status).toBe(200);
    expect((await fetch(`${url}/fast`)).status).toBe(200);
    gates.shift()!();
    expect((await held[1]!).status).toBe(200);
  });

  it("frees the slot of a client that went away before its answer", async () => {
    const aborted = new AbortController();
    const gone = fetch(`${url}/slow`, { signal: aborted.signal }).catch(() => null);
    const waiting = fetch(`${url}/slow`);
    await untilHeld(2);
    expect((await fetch(`${url}/fast`)).status).toBe(429);
    aborted.abort();
    await gone;
    let status = 429;
    for (let i = 0; i < 100 && status === 429; i++) {
      status = (await fetch(`${url}/fast`)).status;
      if (status === 429) await new Promise((r) => setTimeout(r, 10));
    }
    expect(status).toBe(200);
    for (const open of gates.splice(0)) open();
    expect((await waiting).status).toBe(200);
  });
});
