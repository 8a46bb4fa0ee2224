export interface MapConcurrentlyOptions<T, R> {
  /** Hears each result as it lands, with its index. */
  onResult?: ((index: number, result: R) => void) | undefined;
  /** Once aborted, no further item starts: the calls already out finish as usual. */
  signal?: AbortSignal | undefined;
  /** Asked right before each item starts; an item refused does not start. */
  permit?: ((item: T) => boolean | Promise<boolean>) | undefined;
  /** The result of an item that never started: `signal` aborted, or `permit` refused it. */
  notStarted?: (item: T) => R;
}

/**
 * `fn` over `items` with at most `limit` calls in flight, taken in order; results in input
 * order. Without `notStarted`, every item runs, whatever `signal` and `permit` say.
 */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
  options: MapConcurrentlyOptions<T, R> = {},
): Promise<R[]> {
  const { onResult, signal, permit, notStarted } = options;
  const results = new Array<R>(items.length);
  // The signal is read again after a permit that had to wait: the batch may have stopped meanwhile.
  const mayStart = async (item: T) => !signal?.aborted && (!permit || ((await permit(item)) && !signal?.aborted));
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index]!;
      results[index] = !notStarted || (await mayStart(item)) ? await fn(item) : notStarted(item);
      onResult?.(index, results[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
