import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "../../lib/trpc.ts";

/** Returning the promise keeps a mutation pending until `providers.list` has reloaded. */
export function useInvalidateProviders() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: trpc.providers.list.queryKey() }), [trpc, queryClient]);
}
