import { useCallback, useState } from "react";

/**
 * A Refresh button's pending state. Not the query's `isRefetching`: lists that poll on their
 * own would make the button spin and disable itself every few seconds.
 */
export function useManualRefresh(refetch: () => Promise<unknown>): { refresh: () => void; refreshing: boolean } {
  const [refreshing, setRefreshing] = useState(false);
  const refresh = useCallback(() => {
    setRefreshing(true);
    void refetch().finally(() => setRefreshing(false));
  }, [refetch]);
  return { refresh, refreshing };
}
