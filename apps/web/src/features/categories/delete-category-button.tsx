import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ConfirmMutationButton } from "../../components/ui/confirm-mutation-button.tsx";
import type { Category } from "../../lib/api-types.ts";
import { useTRPC } from "../../lib/trpc.ts";

/** The server refuses while anything uses the category, and the dialog shows its reason. */
export function DeleteCategoryButton({ category }: { category: Category }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // A user's page lists the categories too: a cached one would still show the deleted one.
  const remove = useMutation(
    trpc.categories.delete.mutationOptions({
      onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: trpc.categories.pathKey() }), queryClient.invalidateQueries(trpc.users.get.pathFilter())]),
    }),
  );

  return (
    <ConfirmMutationButton
      label="Delete"
      title={`Delete “${category.label}”?`}
      confirmLabel="Delete category"
      mutation={remove}
      run={(done) => remove.mutate({ key: category.key }, { onSuccess: done })}
    >
      <p>
        <code className="code">{category.key}</code> and its aliases stop naming anything. Herald keeps a category that a notification type, a broadcast
        or a user's preference still uses.
      </p>
    </ConfirmMutationButton>
  );
}
