import { applyStatusEvents, type Sql } from "@herald/db";
import type { Task } from "graphile-worker";
import { z } from "zod";

const PayloadSchema = z.object({
  events: z.array(
    z.object({
      providerMessageId: z.string().min(1).max(500),
      kind: z.enum(["delivered", "failed", "bounced", "complaint", "auto_reply", "delivery_delayed", "opened", "clicked", "read"]),
      at: z.coerce.date(),
      detail: z.record(z.string(), z.unknown()).optional(),
      suppress: z.enum(["hard_bounce", "complaint", "stop"]).optional(),
      source: z.string().max(100).optional(),
    }),
  ),
});

/**
 * Applies provider status reports (webhooks, and the sandbox's simulated ones) off the request
 * path, so a slow database never makes a provider time out and a failure retries as a job.
 */
export function applyStatusEventsTask(sql: Sql): Task {
  return async (payload, helpers) => {
    const parsed = PayloadSchema.safeParse(payload);
    if (!parsed.success) {
      helpers.logger.error(`apply_status_events: malformed payload dropped: ${parsed.error.message}`);
      return;
    }
    const orphans = await applyStatusEvents(sql, parsed.data.events);
    if (orphans.length > 0) helpers.logger.warn(`apply_status_events: no notification for ${orphans.join(", ")}`);
  };
}
