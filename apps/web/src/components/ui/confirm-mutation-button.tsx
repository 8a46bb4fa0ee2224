import { useState, type ReactNode } from "react";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { Button } from "./button.tsx";
import { ConfirmDialog } from "./confirm-dialog.tsx";

interface ConfirmableMutation {
  reset(): void;
  isPending: boolean;
  error: unknown;
}

interface ConfirmMutationButtonProps {
  label: string;
  title: string;
  confirmLabel: string;
  mutation: ConfirmableMutation;
  /** Starts the mutation and calls `done` once it succeeded; a refusal keeps the dialog open with its reason. */
  run: (done: () => void) => void;
  /** What confirming does, in the dialog's body. */
  children: ReactNode;
}

/** A danger button that asks before an action that cannot be taken back, and shows the server's refusal in place. */
export function ConfirmMutationButton({ label, title, confirmLabel, mutation, run, children }: ConfirmMutationButtonProps) {
  const [confirming, setConfirming] = useState(false);

  return (
    <>
      <Button
        size="sm"
        variant="danger"
        onClick={() => {
          mutation.reset();
          setConfirming(true);
        }}
      >
        {label}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={title}
        confirmLabel={confirmLabel}
        pending={mutation.isPending}
        error={mutation.error ? getErrorMessage(mutation.error) : null}
        onCancel={() => setConfirming(false)}
        onConfirm={() => run(() => setConfirming(false))}
      >
        {children}
      </ConfirmDialog>
    </>
  );
}
