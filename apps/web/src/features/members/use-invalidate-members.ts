import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "../../lib/trpc.ts";

/** Every members mutation changes `members.list`; returning the promise keeps the mutation pending until it has reloaded. */
export function useInvalidateMembers() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    () => queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() }),
    [trpc, queryClient],
  );
}
