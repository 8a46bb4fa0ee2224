import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "../../lib/trpc.ts";

/** Returning the promise keeps a mutation pending until `apiKeys.list` has reloaded. */
export function useInvalidateApiKeys() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() }), [trpc, queryClient]);
}
