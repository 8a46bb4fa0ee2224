import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import type { Member } from "../../lib/api-types.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useInvalidateMembers } from "./use-invalidate-members.ts";

/** Disable or enable a member, after confirming. */
export function MemberStatusButton({ member }: { member: Member }) {
  const trpc = useTRPC();
  const invalidateMembers = useInvalidateMembers();
  const setDisabled = useMutation(trpc.members.setDisabled.mutationOptions({ onSuccess: invalidateMembers }));
  const [confirming, setConfirming] = useState(false);
  const disabling = !member.disabled;

  return (
    <>
      <Button
        size="sm"
        onClick={() => {
          setDisabled.reset();
          setConfirming(true);
        }}
      >
        {disabling ? "Disable" : "Enable"}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={disabling ? `Disable ${member.name}?` : `Enable ${member.name}?`}
        tone={disabling ? "danger" : "primary"}
        pending={setDisabled.isPending}
        error={setDisabled.error ? getErrorMessage(setDisabled.error) : null}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          setDisabled.mutate(
            { memberId: member.id, disabled: disabling },
            { onSuccess: () => setConfirming(false) },
          )
        }
      >
        {disabling ? (
          <p>
            {member.name} ({member.email}) will no longer be able to sign in. Their entries in the audit log stay, and
            you can enable them again at any time.
          </p>
        ) : (
          <p>
            {member.name} ({member.email}) will be able to sign in again with their existing password and role.
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
