import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";

/** Deletes a segment; the server refuses while another segment's rule names it. */
export function DeleteSegmentButton({ id, name, onDeleted }: { id: string; name: string; onDeleted: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.segments.delete.mutationOptions({
      // Only the list: this page's own segment is gone, and refetching it would flash "not found".
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.segments.list.pathKey() }),
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
        Delete
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`Delete “${name}”?`}
        confirmLabel="Delete segment"
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
        <p>Broadcasts that already went out keep the rule they were sent with. Segments whose rules name this one must be changed first.</p>
      </ConfirmDialog>
    </>
  );
}
