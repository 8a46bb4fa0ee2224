import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EnvError, documentedVariables, loadEnv } from "../src/env.ts";

describe("loadEnv", () => {
  it("fills defaults", () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ HERALD_MODE: "development", HERALD_ROLE: "all", PORT: 3000, HERALD_DATA_DIR: "./.herald/pg" });
    expect(env.publicUrl.toString()).toBe("http://localhost:3000/");
    expect(env.pinnedSettings.size).toBe(0);
  });

  it.each([
    [{ PORT: "http" }, /^Invalid environment variable PORT="http": /],
    [{ HERALD_MODE: "prod" }, /^Invalid environment variable HERALD_MODE="prod": /],
    [{ DATABASE_URL: "mysql://x" }, 'Invalid environment variable DATABASE_URL="mysql://x": must be a postgres:// or postgresql:// URL'],
    [{ HERALD_PUBLIC_URL: "ftp://x" }, /^Invalid environment variable HERALD_PUBLIC_URL="ftp:\/\/x": must be an http\(s\) URL/],
    [{ HERALD_DEFAULT_TIMEZONE: "Mars/Base" }, 'Invalid environment variable HERALD_DEFAULT_TIMEZONE="Mars/Base": must be an IANA time zone such as Europe/Berlin'],
    [{ HERALD_SESSION_TTL_HOURS: "forever" }, /^Invalid environment variable HERALD_SESSION_TTL_HOURS="forever": /],
  ])("stops on %o with one line naming the variable", (source, message) => {
    expect(() => loadEnv(source)).toThrow(EnvError);
    expect(() => loadEnv(source)).toThrow(message);
  });

  it("pins a setting from its variable, typed", () => {
    const env = loadEnv({ HERALD_SESSION_TTL_HOURS: "12", HERALD_WORKSPACE_NAME: "Acme" });
    expect(env.pinnedSettings.get("auth.sessionTtlHours")).toEqual({ env: "HERALD_SESSION_TTL_HOURS", value: 12 });
    expect(env.pinnedSettings.get("workspace.name")).toEqual({ env: "HERALD_WORKSPACE_NAME", value: "Acme" });
  });

  it("treats an empty variable as unset", () => {
    expect(loadEnv({ DATABASE_URL: "" }).DATABASE_URL).toBeUndefined();
  });
});

describe("the README's configuration table", () => {
  const readme = fs.readFileSync(fileURLToPath(new URL("../../../README.md", import.meta.url)), "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"));
  const documented = [...section.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]);

  it("documents exactly the variables the server reads", () => {
    expect(documented.sort()).toEqual(documentedVariables().map((v) => v.name).sort());
  });
});
