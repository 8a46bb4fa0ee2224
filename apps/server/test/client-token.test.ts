import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyClientToken } from "../src/http/client/client-token.ts";

// The per-user client JWT (docs/client-api.md): HS256 only, exp required and at most 24 h ahead.

const SECRET = "c".repeat(40);
const NOW = Date.UTC(2026, 11, 1, 12);
const now = NOW / 1000;

const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");
function jwt(payload: Record<string, unknown>, header: Record<string, unknown> = { alg: "HS256", typ: "JWT" }, secret = SECRET): string {
  const unsigned = `${b64(header)}.${b64(payload)}`;
  return `${unsigned}.${createHmac("sha256", secret).update(unsigned).digest("base64url")}`;
}

describe("client tokens", () => {
  it("accepts an HS256 token with sub and exp", () => {
    expect(verifyClientToken(jwt({ sub: "user-1", exp: now + 3600 }), SECRET, NOW)).toEqual({ ok: true, userId: "user-1" });
    expect(verifyClientToken(jwt({ sub: "user-1", exp: now + 3600 }, { alg: "HS256" }), SECRET, NOW).ok).toBe(true);
  });

  it.each([
    ["alg none, unsigned", `${b64({ alg: "none" })}.${b64({ sub: "u", exp: now + 60 })}.`, "malformed"],
    ["alg none, with a signature", jwt({ sub: "u", exp: now + 60 }, { alg: "none" }), "algorithm"],
    ["alg NONE", jwt({ sub: "u", exp: now + 60 }, { alg: "NONE" }), "algorithm"],
    ["RS256 with the secret as HMAC key", jwt({ sub: "u", exp: now + 60 }, { alg: "RS256" }), "algorithm"],
    ["HS512", jwt({ sub: "u", exp: now + 60 }, { alg: "HS512" }), "algorithm"],
    ["a crit header", jwt({ sub: "u", exp: now + 60 }, { alg: "HS256", crit: ["b64"], b64: false }), "algorithm"],
    ["another secret", jwt({ sub: "u", exp: now + 60 }, undefined, "o".repeat(40)), "signature"],
    ["no exp", jwt({ sub: "u" }), "expiry_missing"],
    ["a string exp", jwt({ sub: "u", exp: String(now + 60) }), "expiry_missing"],
    ["expired", jwt({ sub: "u", exp: now - 3600 }), "expired"],
    ["exp more than 24 h ahead", jwt({ sub: "u", exp: now + 25 * 3600 }), "expiry_too_far"],
    ["nbf in the future", jwt({ sub: "u", exp: now + 3600, nbf: now + 600 }), "not_yet_valid"],
    ["no sub", jwt({ exp: now + 60 }), "subject"],
    ["a numeric sub", jwt({ sub: 42, exp: now + 60 }), "subject"],
    ["an empty sub", jwt({ sub: "", exp: now + 60 }), "subject"],
    ["two segments", `${b64({ alg: "HS256" })}.${b64({ sub: "u", exp: now + 60 })}`, "malformed"],
    ["a JSON array payload", jwt([1, 2] as unknown as Record<string, unknown>), "malformed"],
    ["not base64url", "a+b.c/d.e=f", "malformed"],
  ])("refuses %s", (_name, token, problem) => {
    expect(verifyClientToken(token, SECRET, NOW)).toEqual({ ok: false, problem });
  });

  it("allows a minute of clock skew on exp, and no more", () => {
    expect(verifyClientToken(jwt({ sub: "u", exp: now - 30 }), SECRET, NOW).ok).toBe(true);
    expect(verifyClientToken(jwt({ sub: "u", exp: now - 61 }), SECRET, NOW).ok).toBe(false);
  });

  it("refuses a tampered payload", () => {
    const token = jwt({ sub: "alice", exp: now + 60 });
    const [h, , s] = token.split(".");
    expect(verifyClientToken(`${h}.${b64({ sub: "bob", exp: now + 60 })}.${s}`, SECRET, NOW)).toEqual({ ok: false, problem: "signature" });
  });
});

describe("docs/client-api.md", () => {
  it("its Node example mints a token Herald accepts", async () => {
    const { readFile } = await import("node:fs/promises");
    const doc = await readFile(new URL("../../../docs/client-api.md", import.meta.url), "utf8");
    const example = /```js\n([\s\S]*?)```/.exec(doc)![1]!;
    const body = example.replace(/^import .*$/m, "").replace("export function", "function");
    const mint = new Function("createHmac", "process", `${body}\nreturn heraldClientToken;`)(createHmac, {
      env: { HERALD_CLIENT_SECRET: SECRET },
    }) as (userId: string, ttlSeconds?: number) => string;
    expect(verifyClientToken(mint("user-7"), SECRET, Date.now())).toEqual({ ok: true, userId: "user-7" });
    expect(verifyClientToken(mint("user-7", 25 * 3600), SECRET, Date.now())).toEqual({ ok: false, problem: "expiry_too_far" });
  });
});
