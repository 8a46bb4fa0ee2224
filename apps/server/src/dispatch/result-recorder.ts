import type { ProviderCallResult } from "../providers/provider.ts";

/** Records a subset of a batch's results: their indexes in the batch, and the results. */
export type RecordResults = (indexes: number[], results: ProviderCallResult[]) => Promise<void>;

/**
 * Records a batch's results while the batch is still being sent: each result is queued as it
 * lands and written with whatever else landed meanwhile, one write at a time (a group commit).
 * A worker killed mid-batch then leaves unrecorded only the calls in flight and one write's
 * worth, not every message the provider has accepted since the batch began. A failed write
 * (the database gone) is reported to `onFailure` at once, so the batch stops calling: nothing
 * it sends after that could be recorded.
 */
export function createResultRecorder(record: RecordResults, onFailure?: (error: unknown) => void) {
  const waiting = new Map<number, ProviderCallResult>();
  const taken = new Set<number>();
  let writing: Promise<void> | null = null;
  let failure: unknown = null;

  const write = (): void => {
    if (writing || waiting.size === 0 || failure) return;
    const indexes = [...waiting.keys()];
    const results = [...waiting.values()];
    waiting.clear();
    writing = record(indexes, results)
      .catch((error: unknown) => {
        failure = error;
        onFailure?.(error);
      })
      .finally(() => {
        writing = null;
        write();
      });
  };

  return {
    /** One result landed (a provider's `onResult`). */
    add(index: number, result: ProviderCallResult): void {
      if (taken.has(index)) return;
      taken.add(index);
      waiting.set(index, result);
      write();
    },
    /** Records every result not recorded yet, waits for the writes, and rethrows a failed one. */
    async finish(all: readonly ProviderCallResult[]): Promise<void> {
      all.forEach((result, index) => this.add(index, result));
      while (writing) await writing;
      if (failure) throw failure;
    },
  };
}
