import type { Channel } from "@herald/core";
import type { Task } from "graphile-worker";
import { z } from "zod";
import { dispatchBatch, type DispatcherDependencies } from "../dispatch/dispatcher.ts";

const PayloadSchema = z.object({ ids: z.array(z.string().regex(/^\d{1,18}$/)).min(1).max(1000) });

/**
 * send_push / send_email / send_sms: one batch of notifications. It throws only when
 * graphile-worker should retry the job (the database went away); provider answers, permanent
 * or not, are recorded on each notification and the job completes.
 */
export function sendBatchTask(channel: Channel, deps: DispatcherDependencies): Task {
  return async (payload, helpers) => {
    const parsed = PayloadSchema.safeParse(payload);
    if (!parsed.success) {
      helpers.logger.error(`send_${channel}: malformed payload dropped: ${parsed.error.message}`);
      return;
    }
    await dispatchBatch(deps, channel, parsed.data.ids, helpers.job.id);
  };
}
