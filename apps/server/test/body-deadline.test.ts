import express from "express";
import type { Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyDeadline } from "../src/http/body-deadline.ts";

const DEADLINE_MS = 300;

/** Sends the head and part of a body, then reports what the server answered and whether it closed. */
function trickle(port: number, path: string, rest: { afterMs: number } | null): Promise<{ answer: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve({ answer, closedAfterMs: Date.now() - started }));
    socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 13\r\nConnection: close\r\n\r\n{"a":`);
    if (rest) setTimeout(() => socket.write(`"bcdef"}`), rest.afterMs);
  });
}

describe("bodyDeadline", () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const app = express();
    app.use(bodyDeadline(DEADLINE_MS, (req) => req.path === "/upload"));
    app.post("/echo", express.json(), (req, res) => res.json(req.body));
    app.post("/upload", express.json(), (req, res) => res.json(req.body));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("answers 408 and closes the connection when a body has not arrived by the deadline", async () => {
    const { answer, closedAfterMs } = await trickle(port, "/echo", null);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(DEADLINE_MS - 20);
  });

  it("lets a body that completes in time through", async () => {
    const { answer } = await trickle(port, "/echo", { afterMs: 20 });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('{"a":"bcdef"}');
  });

  it("gives the exempt upload route longer than the deadline", async () => {
    const { answer, closedAfterMs } = await trickle(port, "/upload", { afterMs: DEADLINE_MS * 3 });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(DEADLINE_MS * 3);
  });
});
