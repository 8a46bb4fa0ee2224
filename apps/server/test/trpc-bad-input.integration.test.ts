import { describe, expect, it } from "vitest";
import { appRouter } from "../src/trpc/app-router.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation, trpcQuery, type TrpcResult } from "./support/trpc-http.ts";
import { sampleOf, withTextAt } from "./support/zod-samples.ts";

// Every tRPC procedure, generated from the router, called over HTTP as an admin with inputs
// built from its own zod schema: a NUL or an escape character in each text field (and record
// key) is a 400 naming that field, never a 500 from Postgres; malformed and mistyped inputs are
// a 4xx; no answer carries a stack trace.

const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string; inputs: unknown[] } }>).map(
  ([path, p]) => ({ path, type: p._def.type, input: p._def.inputs[0] }),
);

const CONTROLS: Array<[string, (s: string) => string]> = [
  ["NUL", (s) => `${s}\u0000x`],
  ["ESC", (s) => `\u001b[2J${s}`],
];

describe("bad input on every tRPC procedure", () => {
  const server = useTestServer({ env: { HERALD_SECRET_KEY: "a-test-secret-key-that-is-long-enough-123" } });

  async function caller(type: string, path: string) {
    // A fresh admin per procedure: auth.signOut or members.setDisabled must not spoil the next.
    const { cookie } = await memberWithSession(server.database, "admin");
    return (value: unknown): Promise<TrpcResult> => (type === "query" ? trpcQuery : trpcMutation)(server.url, path, value, { cookie });
  }

  const stackIn = (result: TrpcResult) => /\n\s+at /.test(JSON.stringify(result.error ?? ""));

  it("answers a control character in any text field with 400 naming the field, never a 500", async () => {
    expect(procedures.length).toBeGreaterThan(50);
    const failures: string[] = [];
    let variants = 0;
    for (const { path, type, input } of procedures) {
      if (!input) continue;
      const call = await caller(type, path);
      const { value, texts } = sampleOf(input);
      for (const at of texts) {
        const field = at.path.join(".") || "(input)";
        for (const [name, inject] of CONTROLS) {
          variants += 1;
          const result = await call(withTextAt(value, at, inject));
          const where = `${path} ${name} in ${at.isKey ? "the key of " : ""}${field}`;
          if (result.status !== 400 || !result.error?.message.includes("must not contain NUL or other control characters")) {
            failures.push(`${where}: ${result.status} ${result.error?.message ?? "accepted"}`);
          }
          if (stackIn(result)) failures.push(`${where}: a stack trace`);
        }
      }
    }
    expect(variants).toBeGreaterThan(200);
    expect(failures).toEqual([]);
  }, 300_000);

  it("answers malformed, mistyped and plausible inputs with anything but a 500", async () => {
    const failures: string[] = [];
    for (const { path, type, input } of procedures) {
      const call = await caller(type, path);
      const plausible = input ? sampleOf(input).value : undefined;
      for (const value of [plausible, null, 42, "text", [], { "": { "": [] } }, "x".repeat(5000)]) {
        const result = await call(value);
        if (result.status >= 500 || stackIn(result)) failures.push(`${path} ${JSON.stringify(value)?.slice(0, 80)}: ${result.status} ${result.error?.message}`);
      }
      const raw =
        type === "query"
          ? await fetch(`${server.url}/trpc/${path}?input=%7B%22a%22%3A`)
          : await fetch(`${server.url}/trpc/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"a":' });
      if (raw.status >= 500) failures.push(`${path} malformed JSON: ${raw.status} ${await raw.text()}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
