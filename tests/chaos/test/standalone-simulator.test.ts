import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createSesProvider } from "../../../apps/server/src/providers/ses/ses-provider.ts";
import type { LedgerEntry } from "../src/simulator/ledger.ts";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

// `pnpm simulator`: the simulator as a process of its own, as issue 9 describes it.
describe("the simulator as its own process", () => {
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  });

  it("prints the settings that point Herald at it, answers SES through the real SDK, and serves its ledger", async () => {
    child = spawn(process.execPath, ["tests/chaos/src/simulator/main.ts", "--port", "0"], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "inherit"] });
    const settings = await printedSettings(child);
    const endpoint = settings.get("HERALD_SES_ENDPOINT")!;
    expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const name of ["HERALD_TWILIO_BASE_URL", "HERALD_FCM_ENDPOINT", "HERALD_FCM_TOKEN_ENDPOINT"]) expect(settings.get(name)).toBe(endpoint);

    const ses = createSesProvider({
      name: "ses",
      region: settings.get("HERALD_SES_REGION")!,
      accessKeyId: settings.get("HERALD_SES_ACCESS_KEY_ID")!,
      secretAccessKey: settings.get("HERALD_SES_SECRET_ACCESS_KEY")!,
      from: settings.get("HERALD_SES_FROM")!,
      endpoint,
    });
    const [result] = await ses.send([{ notificationId: "42", channel: "email", lane: "bulk", to: "ada@sim.example", subject: "Hi", body: "hello", data: { notification_id: "42" } }]);
    expect(result!.outcome).toMatchObject({ kind: "sent", providerMessageId: expect.stringMatching(/^sim-1-/) });

    const ledger = (await (await fetch(`${endpoint}/__ledger`)).json()) as LedgerEntry[];
    expect(ledger).toEqual([expect.objectContaining({ seq: 1, provider: "ses", notificationId: "42", address: "ada@sim.example", accepted: true, fault: { kind: "ok" } })]);
  });
});

/** The NAME='value' lines the simulator prints once it listens. */
async function printedSettings(child: ChildProcess): Promise<Map<string, string>> {
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      out += d;
      if (/^HERALD_FCM_TOKEN_ENDPOINT=.*\n/m.test(out)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the simulator exited (${code}) before listening:\n${out}`)));
  });
  const settings = new Map<string, string>();
  for (const [, name, value] of out.matchAll(/^(HERALD_\w+)='(.*)'$/gm)) settings.set(name!, value!.replaceAll(`'\\''`, "'"));
  return settings;
}
