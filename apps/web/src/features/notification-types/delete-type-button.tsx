import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ConfirmMutationButton } from "../../components/ui/confirm-mutation-button.tsx";
import { useTRPC } from "../../lib/trpc.ts";

/** Events of a deleted type are refused from then on: hence the question. */
export function DeleteTypeButton({ type }: { type: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(trpc.notificationTypes.delete.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.notificationTypes.pathKey() }) }));

  return (
    <ConfirmMutationButton
      label="Delete"
      title={`Delete ${type}?`}
      confirmLabel="Delete notification type"
      mutation={remove}
      run={(done) => remove.mutate({ type }, { onSuccess: done })}
    >
      <p>
        Events of type <code className="code">{type}</code> are refused as unknown from now on. Notifications already created go on as they were.
      </p>
    </ConfirmMutationButton>
  );
}
