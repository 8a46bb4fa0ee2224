import { hashKey, useQueryClient, type Query } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "../../lib/trpc.ts";

/**
 * What to do with the query cache when someone signs in or out: the previous member's lists
 * must never flash on screen for the next one.
 */
export function useSessionTransitions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();

  const dropMemberData = useCallback(
    (filters: { type: "all" | "inactive" }) => {
      const kept = new Set([hashKey(trpc.auth.me.queryKey()), hashKey(trpc.setup.status.queryKey())]);
      queryClient.removeQueries({ ...filters, predicate: (query: Query) => !kept.has(query.queryHash) });
    },
    [trpc, queryClient],
  );

  /** After a sign-in, an accepted invite or the first admin: load the new session before navigating. */
  const startSession = useCallback(async () => {
    // Only inactive queries: the page still on screen (an invite's details) must not refetch and
    // flash an error in the moment before we navigate away.
    dropMemberData({ type: "inactive" });
    await Promise.all([
      queryClient.fetchQuery({ ...trpc.auth.me.queryOptions(), staleTime: 0 }),
      // Creating the first admin flips needsFirstAdmin; the setup gate must see that at once.
      queryClient.fetchQuery({ ...trpc.setup.status.queryOptions(), staleTime: 0 }),
    ]);
  }, [trpc, queryClient, dropMemberData]);

  /** After signing out or losing the session: the signed-in layout reacts by going to sign-in. */
  const endSession = useCallback(() => {
    queryClient.setQueryData(trpc.auth.me.queryKey(), { member: null, capabilities: [] });
    dropMemberData({ type: "all" });
  }, [trpc, queryClient, dropMemberData]);

  return { startSession, endSession };
}
