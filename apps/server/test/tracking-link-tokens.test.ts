import pino from "pino";
import { describe, expect, it } from "vitest";
import { createLinkTokens, linkTokensFor } from "../src/links/link-tokens.ts";

// Signed link tokens: unsubscribe, open and click (docs/unsubscribe-and-tracking.md).

const SECRET = "k".repeat(48);

function tamper(token: string, index: number): string {
  const c = token[index] === "A" ? "B" : "A";
  return `${token.slice(0, index)}${c}${token.slice(index + 1)}`;
}

function memoryLog() {
  const lines: Array<{ level: number; msg: string }> = [];
  const log = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

describe("link tokens", () => {
  const tokens = createLinkTokens(SECRET);

  it("round-trips each purpose's payload", () => {
    const unsubscribe = { n: "17", u: "4", c: "marketing", ch: "email" } as const;
    expect(tokens.verify("unsubscribe", tokens.sign("unsubscribe", unsubscribe))).toEqual(unsubscribe);
    expect(tokens.verify("open", tokens.sign("open", { n: "17" }))).toEqual({ n: "17" });
    const click = { n: "17", url: "https://example.com/a?b=1&c=2#d" };
    expect(tokens.verify("click", tokens.sign("click", click))).toEqual(click);
  });

  it("is compact base64url(payload).base64url(HMAC-SHA256) and carries no address", () => {
    const token = tokens.sign("unsubscribe", { n: "17", u: "4", c: "marketing", ch: "email" });
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString())).toEqual({ n: "17", u: "4", c: "marketing", ch: "email" });
  });

  it("refuses a token of another purpose: an open token is no click or unsubscribe token", () => {
    const open = tokens.sign("open", { n: "17" });
    expect(tokens.verify("click", open)).toBeNull();
    expect(tokens.verify("unsubscribe", open)).toBeNull();
  });

  it("refuses tampered payloads and signatures, other keys, and garbage", () => {
    const token = tokens.sign("click", { n: "17", url: "https://example.com/" });
    const [body, signature] = token.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ n: "17", url: "https://evil.example/" })).toString("base64url");
    expect(tokens.verify("click", `${forged}.${signature}`)).toBeNull();
    expect(tokens.verify("click", tamper(token, 3))).toBeNull();
    expect(tokens.verify("click", tamper(token, token.length - 5))).toBeNull();
    expect(tokens.verify("click", `${body}.${signature}x`)).toBeNull();
    expect(tokens.verify("click", body)).toBeNull();
    expect(createLinkTokens("x".repeat(48)).verify("click", token)).toBeNull();
    for (const garbage of ["", ".", "a.b", "%%%.%%%", `${body}.${"A".repeat(43)}`, "null.null"]) {
      expect(tokens.verify("click", garbage)).toBeNull();
    }
  });

  it("refuses a non-canonical spelling of a genuine signature", () => {
    const token = tokens.sign("open", { n: "1" });
    const [body, signature] = token.split(".") as [string, string];
    // The last base64url character of 32 bytes carries 4 spare bits; flipping one keeps the bytes.
    const last = signature.at(-1)!;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const twin = alphabet[alphabet.indexOf(last) ^ 1]!;
    expect(Buffer.from(`${signature.slice(0, -1)}${twin}`, "base64url")).toEqual(Buffer.from(signature, "base64url"));
    expect(tokens.verify("open", `${body}.${signature.slice(0, -1)}${twin}`)).toBeNull();
  });

  it("signs only http(s) destinations", () => {
    expect(() => tokens.sign("click", { n: "1", url: "javascript:alert(1)" })).toThrow();
    expect(() => tokens.sign("click", { n: "1", url: "mailto:a@example.com" })).toThrow();
    expect(() => tokens.sign("click", { n: "1", url: "//evil.example/" })).toThrow();
  });

  it("production without HERALD_SECRET_KEY: no links, and one loud line", () => {
    const { log, lines } = memoryLog();
    expect(linkTokensFor({ HERALD_MODE: "production", HERALD_SECRET_KEY: undefined }, log)).toBeNull();
    expect(linkTokensFor({ HERALD_MODE: "production", HERALD_SECRET_KEY: undefined }, log)).toBeNull();
    expect(lines.filter((l) => l.msg.includes("links are OFF")).map((l) => l.level)).toEqual([50]);
  });

  it("development without HERALD_SECRET_KEY: one random key per process, so the worker and the server agree", () => {
    const { log } = memoryLog();
    const a = linkTokensFor({ HERALD_MODE: "development", HERALD_SECRET_KEY: undefined }, log)!;
    const b = linkTokensFor({ HERALD_MODE: "development", HERALD_SECRET_KEY: undefined }, log)!;
    expect(b.verify("open", a.sign("open", { n: "5" }))).toEqual({ n: "5" });
    expect(createLinkTokens(SECRET).verify("open", a.sign("open", { n: "5" }))).toBeNull();
  });

  it("with HERALD_SECRET_KEY, tokens survive a restart (the same key derives the same tokens)", () => {
    const { log } = memoryLog();
    const before = linkTokensFor({ HERALD_MODE: "production", HERALD_SECRET_KEY: SECRET }, log)!;
    const after = linkTokensFor({ HERALD_MODE: "production", HERALD_SECRET_KEY: SECRET }, log)!;
    expect(after.verify("unsubscribe", before.sign("unsubscribe", { n: "1", u: "2", c: "news", ch: "email" }))).not.toBeNull();
  });
});
