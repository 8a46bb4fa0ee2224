import { describe, expect, it } from "vitest";
import { loggablePath } from "../src/http/request-log.ts";

describe("loggablePath", () => {
  it.each([
    ["/u/eyJuIjoxfQ.sig", "/u/:token"],
    ["/t/o/abc.def.gif", "/t/o/:token"],
    ["/t/c/abc.def", "/t/c/:token"],
    ["/invite/AbCdEf123", "/invite/:token"],
    ["/api/v1/events", "/api/v1/events"],
    ["/users", "/users"],
  ])("logs %s as %s", (path, logged) => {
    expect(loggablePath(path)).toBe(logged);
  });
});
