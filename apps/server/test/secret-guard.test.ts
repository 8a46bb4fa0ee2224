import type { AddressInfo } from "node:net";
import express from "express";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { requireBearerSecret } from "../src/http/secret-guard.ts";

async function serve(secret: string | undefined) {
  const app = express();
  app.get("/guarded", requireBearerSecret(secret, "/guarded", pino({ level: "silent" })), (_req, res) => {
    res.json({ ok: true });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/guarded`, close: () => server.close() };
}

describe("requireBearerSecret", () => {
  it("turns the route off (404) while its secret is unset, whatever is sent", async () => {
    const { url, close } = await serve(undefined);
    for (const authorization of [undefined, "Bearer undefined", "Bearer ", "Bearer null"]) {
      const response = await fetch(url, { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(404);
    }
    close();
  });

  it("asks for the secret once set, and lets the right one through", async () => {
    const { url, close } = await serve("s3cret-token");
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: "Bearer s3cret-token" } })).status).toBe(200);
    close();
  });
});
