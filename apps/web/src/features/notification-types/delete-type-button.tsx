import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";

/** Events of a deleted type are refused from then on: hence the question. */
export function DeleteTypeButton({ type }: { type: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(trpc.notificationTypes.delete.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.notificationTypes.pathKey() }) }));
  const [confirming, setConfirming] = useState(false);

  return (
    <>
      <Button
        size="sm"
        variant="danger"
        onClick={() => {
          remove.reset();
          setConfirming(true);
        }}
      >
        Delete
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${type}?`}
        confirmLabel="Delete notification type"
        pending={remove.isPending}
        error={remove.error ? getErrorMessage(remove.error) : null}
        onCancel={() => setConfirming(false)}
        onConfirm={() => remove.mutate({ type }, { onSuccess: () => setConfirming(false) })}
      >
        <p>
          Events of type <code className="code">{type}</code> are refused as unknown from now on. Notifications already created go on as they were.
        </p>
      </ConfirmDialog>
    </>
  );
}
