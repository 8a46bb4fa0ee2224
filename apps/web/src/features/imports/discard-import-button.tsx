import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";

/** Deletes the import's staged rows and error report; what it imported stays. */
export function DiscardImportButton({ id, fileName }: { id: string; fileName: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const discard = useMutation(
    trpc.imports.discard.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.imports.list.pathKey() });
        navigate("/imports");
      },
    }),
  );
  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)}>
        Discard
      </Button>
      <ConfirmDialog
        open={open}
        title={`Discard ${fileName}?`}
        confirmLabel="Discard"
        tone="danger"
        pending={discard.isPending}
        error={discard.error ? getErrorMessage(discard.error) : null}
        onConfirm={() => discard.mutate({ id })}
        onCancel={() => setOpen(false)}
      >
        The uploaded rows and the error report are deleted. Anything already imported stays.
      </ConfirmDialog>
    </>
  );
}
