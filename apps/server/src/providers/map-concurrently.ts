export interface MapConcurrentlyOptions<T, R> {
  /** Hears each result as it lands, with its index. */
  onResult?: ((index: number, result: R) => void) | undefined;
  /** Once aborted, no further item starts: the calls already out finish as usual. */
  signal?: AbortSignal | undefined;
  /** The result of an item that never started because `signal` aborted. */
  notStarted?: (item: T) => R;
}

/**
 * `fn` over `items` with at most `limit` calls in flight, taken in order; results in input
 * order. Without `notStarted`, an abort still lets every item run.
 */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
  options: MapConcurrentlyOptions<T, R> = {},
): Promise<R[]> {
  const { onResult, signal, notStarted } = options;
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index]!;
      results[index] = signal?.aborted && notStarted ? notStarted(item) : await fn(item);
      onResult?.(index, results[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
