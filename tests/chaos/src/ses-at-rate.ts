import { upsertProviderConfig } from "@herald/db";
import { SecretBox } from "../../../apps/server/src/providers/credentials/secret-box.ts";
import { providerEnvironment } from "./herald-worker.ts";
import type { Scenario } from "./scenario.ts";

const SECRET_KEY = "chaos-secret-key-0000000000000000000000";

/**
 * SES on the simulator as Settings → Providers stores it, with its rate (the token bucket every
 * worker shares) at `ratePerSecond`. The environment's SES has no rate setting and sends at
 * SES's default 14/s, too slow for the load scenarios' 50 emails a second. Returns what every
 * Herald process of the scenario needs in its environment: the SES variables unset (they would
 * win over the stored provider) and the key that opens its secrets.
 */
export async function sesAtRate(scenario: Scenario, ratePerSecond: number): Promise<Record<string, string>> {
  const env = providerEnvironment(scenario.sim.url);
  const box = new SecretBox(SECRET_KEY);
  await upsertProviderConfig(scenario.sql, {
    channel: "email",
    role: "primary",
    kind: "ses",
    settings: { region: env.HERALD_SES_REGION, from: env.HERALD_SES_FROM, endpoint: env.HERALD_SES_ENDPOINT, ratePerSecond },
    secretCiphertext: box.seal(JSON.stringify({ accessKeyId: env.HERALD_SES_ACCESS_KEY_ID, secretAccessKey: env.HERALD_SES_SECRET_ACCESS_KEY })),
    enabled: true,
    updatedBy: null,
  });
  return {
    HERALD_SECRET_KEY: SECRET_KEY,
    ...Object.fromEntries(Object.keys(env).filter((name) => name.startsWith("HERALD_SES_")).map((name) => [name, ""])),
  };
}
