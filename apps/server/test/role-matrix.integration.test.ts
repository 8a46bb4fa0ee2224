import { ROLES, decideAccess, type Role } from "@herald/core";
import { describe, expect, it } from "vitest";
import { loadAccessTable } from "../src/access/access-table.ts";
import { appRouter } from "../src/trpc/app-router.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcMutation, trpcQuery } from "./support/trpc-http.ts";

const table = loadAccessTable();
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>).map(
  ([path, p]) => ({ path, type: p._def.type }),
);

describe("the role matrix of docs/roles.md", () => {
  const server = useTestServer();

  it("lists every procedure of the router, and nothing else", () => {
    expect(procedures.length).toBeGreaterThan(10);
    expect([...table.procedures.keys()].sort()).toEqual(procedures.map((p) => p.path).sort());
  });

  it("holds for every procedure, called over HTTP as every role and signed out", async () => {
    const mismatches: string[] = [];
    for (const { path, type } of procedures) {
      for (const role of [null, ...ROLES] as Array<Role | null>) {
        // A fresh member and session per call: signOut or setDisabled must not spoil the next one.
        const cookie = role ? (await memberWithSession(server.database, role)).cookie : undefined;
        const call = type === "query" ? trpcQuery : trpcMutation;
        const result = await call(server.url, path, {}, { cookie });
        const code = result.error?.data.code ?? "OK";
        const outcome = code === "UNAUTHORIZED" ? "unauthenticated" : code === "FORBIDDEN" ? "forbidden" : "allowed";
        const expected = decideAccess(table, path, role);
        if (outcome !== expected) mismatches.push(`${path} as ${role ?? "signed out"}: expected ${expected}, got ${code}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
