import fs from "node:fs";
import { DISPATCH_STATE_MEANINGS, REASON_CODES, STATUS_TABLE, SUPPRESSION_REASONS, UNREACHABLE_KINDS } from "@herald/core";
import { describe, expect, it } from "vitest";
import { REST_ERROR_CODES } from "../src/http/rest-errors.ts";
import { restApi } from "../src/http/rest/rest-router.ts";
import type { AppServices } from "../src/trpc/context.ts";
import { listRoutes } from "./support/express-routes.ts";

// docs/api.md must not drift from the code: its tables are checked row by row against the
// tables in core and the server, and every route the REST router serves must be documented.

const doc = fs.readFileSync(new URL("../../../docs/api.md", import.meta.url), "utf8");

/** The lines of the `## heading` section (up to the next `## `). */
function section(heading: string): string[] {
  const lines = doc.split("\n");
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`docs/api.md has no "## ${heading}" section`);
  const end = lines.findIndex((line, i) => i > start && line.startsWith("## "));
  return lines.slice(start, end < 0 ? undefined : end);
}

/** The cells of the table row in `lines` whose first cell is `key` in backticks. */
function row(lines: string[], key: string): string[] | undefined {
  const line = lines.find((l) => l.startsWith(`| \`${key}\` |`));
  return line
    ?.split("|")
    .slice(1, -1)
    .map((cell) => cell.trim());
}

describe("docs/api.md", () => {
  it("lists every status with its rank, whether it is settled, and its meaning", () => {
    const statuses = section("Statuses");
    for (const [status, info] of Object.entries(STATUS_TABLE)) {
      expect(row(statuses, status), status).toEqual([`\`${status}\``, String(info.rank), info.settled ? "yes" : "no", info.meaning]);
    }
  });

  it("lists every dispatch state with its meaning", () => {
    const states = section("Dispatch states");
    for (const [state, meaning] of Object.entries(DISPATCH_STATE_MEANINGS)) {
      expect(row(states, state), state).toEqual([`\`${state}\``, meaning]);
    }
  });

  it("lists every reason code key with its gate, what it does and its meaning, and every parameter value", () => {
    const reasons = section("Reason codes");
    for (const [key, info] of Object.entries(REASON_CODES)) {
      expect(row(reasons, key), key).toEqual([`\`${key}\``, info.gate, info.settles, info.meaning]);
    }
    for (const value of [...SUPPRESSION_REASONS, ...UNREACHABLE_KINDS]) expect(reasons.join("\n"), value).toContain(`\`${value}\``);
  });

  it("lists every REST error code with its status and meaning", () => {
    const errors = section("Errors");
    for (const [code, info] of Object.entries(REST_ERROR_CODES)) {
      expect(row(errors, code), code).toEqual([`\`${code}\``, String(info.status), info.meaning]);
    }
  });

  it("documents every route the REST router serves", () => {
    const routes = listRoutes(restApi(stubServices())).map((r) => `${r.method} ${r.path}`);
    expect(routes.length).toBeGreaterThan(15);
    const undocumented = routes.filter((route) => !new RegExp(`\`${escape(route)}[\`?]`).test(doc));
    expect(undocumented).toEqual([]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// Building the router touches no service; handlers never run here.
function stubServices(): AppServices {
  return { database: { pool: {}, prisma: {} } } as unknown as AppServices;
}
