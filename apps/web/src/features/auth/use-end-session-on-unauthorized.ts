import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { hasErrorCode } from "../../lib/trpc-error.ts";
import { useSessionTransitions } from "./use-session-transitions.ts";

/**
 * A session can expire or be revoked (the member disabled) while the dashboard is open; the first
 * UNAUTHORIZED answer ends it locally so the signed-in layout sends the member to sign-in.
 */
export function useEndSessionOnUnauthorized() {
  const queryClient = useQueryClient();
  const { endSession } = useSessionTransitions();

  useEffect(() => {
    const check = (error: unknown) => {
      if (hasErrorCode(error, "UNAUTHORIZED")) endSession();
    };
    const stopQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "error") check(event.action.error);
    });
    const stopMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "error") check(event.action.error);
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [queryClient, endSession]);
}
