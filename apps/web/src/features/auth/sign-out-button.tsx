import { useMutation } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { Button } from "../../components/ui/button.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useSessionTransitions } from "./use-session-transitions.ts";

export function SignOutButton() {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const { endSession } = useSessionTransitions();
  const signOut = useMutation(
    trpc.auth.signOut.mutationOptions({
      onSuccess: () => {
        // Session first: if the sign-in page rendered while the old member was still cached, it
        // would send us straight back to the dashboard.
        endSession();
        void navigate("/sign-in", { replace: true });
      },
    }),
  );
  return (
    <>
      {signOut.error && (
        <span className="topbar-error" role="alert">
          {getErrorMessage(signOut.error)}
        </span>
      )}
      <Button size="sm" variant="ghost" pending={signOut.isPending} onClick={() => signOut.mutate()}>
        Sign out
      </Button>
    </>
  );
}
