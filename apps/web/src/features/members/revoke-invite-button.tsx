import { useMutation } from "@tanstack/react-query";
import { Button } from "../../components/ui/button.tsx";
import type { Invite } from "../../lib/api-types.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useInvalidateMembers } from "./use-invalidate-members.ts";

/** No confirmation: a revoked invite costs only a new one. */
export function RevokeInviteButton({ invite }: { invite: Invite }) {
  const trpc = useTRPC();
  const invalidateMembers = useInvalidateMembers();
  const revoke = useMutation(trpc.members.revokeInvite.mutationOptions({ onSuccess: invalidateMembers }));
  return (
    <div className="cell-control cell-control-end">
      <Button size="sm" variant="danger" pending={revoke.isPending} onClick={() => revoke.mutate({ inviteId: invite.id })}>
        Revoke
      </Button>
      {revoke.error && (
        <p className="field-error" role="alert">
          {getErrorMessage(revoke.error)}
        </p>
      )}
    </div>
  );
}
