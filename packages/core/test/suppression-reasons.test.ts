import { describe, expect, it } from "vitest";
import { SuppressionReasonSchema } from "../src/suppressions/suppression-reasons.ts";

describe("SuppressionReasonSchema", () => {
  it("accepts the six reasons", () => {
    for (const reason of ["hard_bounce", "complaint", "stop", "invalid", "manual", "import"]) {
      expect(SuppressionReasonSchema.safeParse(reason).success).toBe(true);
    }
  });

  it("rejects another word, naming it and the choices", () => {
    expect(SuppressionReasonSchema.safeParse("unsubscribe").error?.issues[0]?.message).toBe(
      '"unsubscribe" is not a suppression reason: use hard_bounce, complaint, stop, invalid, manual, import',
    );
  });
});
