import { z } from "zod";

/** Why an address is on the suppression list; a suppression overrides every preference. */
export const SUPPRESSION_REASONS = ["hard_bounce", "complaint", "stop", "invalid", "manual", "import"] as const;
export const SuppressionReasonSchema = z.enum(SUPPRESSION_REASONS, {
  error: (issue) => `${JSON.stringify(issue.input)} is not a suppression reason: use ${SUPPRESSION_REASONS.join(", ")}`,
});
export type SuppressionReason = z.infer<typeof SuppressionReasonSchema>;
