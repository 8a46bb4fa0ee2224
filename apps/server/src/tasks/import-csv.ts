import { enqueueImportSlice, markImportFailed } from "@herald/db";
import type { Task } from "graphile-worker";
import type pg from "pg";
import { z } from "zod";
import { runImportSlice, UnusableMappingError, type SliceBudget } from "../imports/import-runner.ts";

const PayloadSchema = z.object({ importId: z.string().regex(/^\d{1,18}$/) });

/**
 * Applies a CSV import a slice at a time; each slice queues the next, so a restart resumes
 * where the last committed chunk left off. A failure is retried (the job's attempts) and, when
 * they are spent, recorded on the import for the member to read.
 */
export function importCsvTask(pool: pg.Pool, budget?: SliceBudget): Task {
  return async (payload, helpers) => {
    const parsed = PayloadSchema.safeParse(payload);
    if (!parsed.success) {
      helpers.logger.error(`import_csv: malformed payload dropped: ${parsed.error.message}`);
      return;
    }
    const { importId } = parsed.data;
    try {
      const outcome = await runImportSlice(pool, importId, budget);
      if (outcome === "more") await enqueueImportSlice(pool, importId);
    } catch (error) {
      const last = helpers.job.attempts >= helpers.job.max_attempts;
      if (error instanceof UnusableMappingError || last) {
        helpers.logger.error(`import_csv: import ${importId} failed: ${(error as Error).message}`);
        await markImportFailed(pool, importId, `The import stopped: ${(error as Error).message}`);
        return;
      }
      throw error;
    }
  };
}
