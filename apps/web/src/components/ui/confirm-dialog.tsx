import { useId, type ReactNode } from "react";
import { useModalDialog } from "../../lib/use-modal-dialog.ts";
import { Alert } from "./alert.tsx";
import { Button } from "./button.tsx";

type ConfirmDialogProps = {
  open: boolean;
  title: string;
  children: ReactNode;
  /** Kept distinct from the button that opened the dialog so each has a unique accessible name. */
  confirmLabel?: string;
  tone?: "primary" | "danger";
  pending?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
};

/** A modal question. The native <dialog> traps focus and, opening, focuses Cancel: the safe choice. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel = "Confirm",
  tone = "danger",
  pending = false,
  error,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const ref = useModalDialog(open);
  const titleId = useId();
  const bodyId = useId();

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        // Escape: let React state, not the browser, decide whether the dialog is open.
        event.preventDefault();
        if (!pending) onCancel();
      }}
    >
      <h2 className="dialog-title" id={titleId}>
        {title}
      </h2>
      <div className="dialog-body" id={bodyId}>
        {children}
      </div>
      {error && <Alert tone="error">{error}</Alert>}
      <div className="dialog-actions">
        <Button onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button variant={tone} onClick={onConfirm} pending={pending}>
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
