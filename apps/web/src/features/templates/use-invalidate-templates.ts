import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "../../lib/trpc.ts";

/**
 * Every templates query: a save, publish or archive changes the list, the versions and the
 * diffs alike. Returning the promise keeps a mutation pending until they have reloaded.
 */
export function useInvalidateTemplates() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: trpc.templates.pathKey() }), [trpc, queryClient]);
}
