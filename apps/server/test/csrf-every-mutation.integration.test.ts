import { describe, expect, it } from "vitest";
import { appRouter } from "../src/trpc/app-router.ts";
import { withoutWrites } from "./support/table-snapshot.ts";
import { memberWithSession, useTestServer } from "./support/test-server.ts";
import { trpcQuery } from "./support/trpc-http.ts";

// Cross-site request forgery against every cookie-authenticated mutation, generated from the
// router (so a new one cannot be forgotten), and against the CSV upload: an admin's live session
// cookie rides along, as a browser would attach it. Another origin is 403; what a cross-site
// form can send (urlencoded, multipart, text/plain) is 415; a GET is not a mutation. Nothing is
// written by any of them.

const mutations = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)
  .filter(([, p]) => p._def.type === "mutation")
  .map(([path]) => path);

const FORM_BODIES: Array<[string, string]> = [
  ["application/x-www-form-urlencoded", "key=workspace.name&value=Pwned"],
  ["multipart/form-data; boundary=x", '--x\r\nContent-Disposition: form-data; name="key"\r\n\r\nworkspace.name\r\n--x--\r\n'],
  ["text/plain", '{"key":"workspace.name","value":"Pwned"}'],
];

describe("CSRF on every mutation", () => {
  const server = useTestServer({ env: { HERALD_PUBLIC_URL: "https://herald.example.com" } });

  it("refuses other origins, form encodings and GETs for every mutation and the upload, writing nothing", async () => {
    expect(mutations.length).toBeGreaterThan(30);
    const { cookie } = await memberWithSession(server.database, "admin");
    // The session's first use is recorded (last seen); do it before the snapshot.
    expect((await trpcQuery(server.url, "auth.me", undefined, { cookie })).data.member).not.toBeNull();
    const failures: string[] = [];
    await withoutWrites(server.database.pool, async () => {
      for (const path of mutations) {
        const post = (headers: Record<string, string>, body: string) => fetch(`${server.url}/trpc/${path}`, { method: "POST", headers: { cookie, ...headers }, body });
        const expectStatus = async (what: string, response: Response, status: number) => {
          if (response.status !== status) failures.push(`${path} ${what}: ${response.status} ${(await response.text()).slice(0, 120)}`);
        };
        for (const origin of ["https://evil.example", "null", "https://herald.example.com.evil.example", "http://herald.example.com"]) {
          await expectStatus(`from ${origin}`, await post({ origin, "content-type": "application/json" }, "{}"), 403);
        }
        for (const [type, body] of FORM_BODIES) {
          await expectStatus(`as ${type}`, await post({ "content-type": type }, body), 415);
          await expectStatus(`as ${type} from elsewhere`, await post({ origin: "https://evil.example", "content-type": type }, body), 403);
        }
        await expectStatus("by GET", await fetch(`${server.url}/trpc/${path}?input=%7B%7D`, { headers: { cookie } }), 405);
      }
      const upload = (headers: Record<string, string>) =>
        fetch(`${server.url}/files/imports?name=x.csv`, { method: "POST", headers: { cookie, ...headers }, body: "email\na@example.com\n" });
      // The upload asks more: an Origin, and its own.
      for (const headers of [{ origin: "https://evil.example" }, {}] as Array<Record<string, string>>) {
        const refused = await upload({ ...headers, "content-type": "text/csv" });
        if (refused.status !== 403) failures.push(`upload from ${JSON.stringify(headers)}: ${refused.status}`);
      }
      for (const [type] of FORM_BODIES) {
        const form = await upload({ origin: "https://herald.example.com", "content-type": type });
        if (form.status !== 415) failures.push(`upload as ${type}: ${form.status}`);
      }
    });
    expect(failures).toEqual([]);
  }, 120_000);
});
