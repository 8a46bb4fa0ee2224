import { listBuckets } from "@herald/db";
import { describe, expect, it } from "vitest";
import { useTestServer } from "./support/test-server.ts";

describe("every configured provider's token bucket", () => {
  // The sandbox providers stand in for unconfigured channels, at the sandbox's rate setting.
  const server = useTestServer({ env: { HERALD_SANDBOX_RATE_PER_SECOND: "40" } });

  it("refills at the provider's rate and holds half a second of it: the lag between a token and its call's arrival has the other half", async () => {
    const buckets = await listBuckets(server.database.pool);
    expect(buckets.map(({ provider, ratePerSecond, burst }) => ({ provider, ratePerSecond, burst }))).toEqual(
      ["sandbox-email", "sandbox-push", "sandbox-sms"].map((provider) => ({ provider, ratePerSecond: 40, burst: 20 })),
    );
  });
});
