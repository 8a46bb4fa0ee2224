import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";

/** Deletes a draft; a broadcast that was ever scheduled can only be canceled. */
export function DeleteDraftButton({ id, name, onDeleted }: { id: string; name: string; onDeleted: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.broadcasts.delete.mutationOptions({
      // Only the list: refetching this page's own broadcast would flash "not found" before leaving.
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.broadcasts.list.pathKey() }),
    }),
  );
  const [confirming, setConfirming] = useState(false);

  return (
    <>
      <Button
        variant="ghost"
        onClick={() => {
          remove.reset();
          setConfirming(true);
        }}
      >
        Delete draft
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`Delete “${name}”?`}
        confirmLabel="Delete draft"
        pending={remove.isPending}
        error={remove.error ? getErrorMessage(remove.error) : null}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(
            { id },
            {
              onSuccess: () => {
                setConfirming(false);
                onDeleted();
              },
            },
          )
        }
      >
        <p>Nothing was sent: the draft and its settings are deleted.</p>
      </ConfirmDialog>
    </>
  );
}
