import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import type { Category } from "../../lib/api-types.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";

/** The server refuses while anything uses the category, and the dialog shows its reason. */
export function DeleteCategoryButton({ category }: { category: Category }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(trpc.categories.delete.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.categories.pathKey() }) }));
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
        title={`Delete “${category.label}”?`}
        confirmLabel="Delete category"
        pending={remove.isPending}
        error={remove.error ? getErrorMessage(remove.error) : null}
        onCancel={() => setConfirming(false)}
        onConfirm={() => remove.mutate({ key: category.key }, { onSuccess: () => setConfirming(false) })}
      >
        <p>
          <code className="code">{category.key}</code> and its aliases stop naming anything. Herald keeps a category that a notification type, a
          broadcast or a user's preference still uses.
        </p>
      </ConfirmDialog>
    </>
  );
}
