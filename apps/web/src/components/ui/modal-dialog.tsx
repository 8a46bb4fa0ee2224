import { useId, type ReactNode } from "react";
import { useModalDialog } from "../../lib/use-modal-dialog.ts";
import { classNames } from "../../lib/class-names.ts";

type ModalDialogProps = {
  open: boolean;
  title: string;
  description?: ReactNode;
  /** Wide enough for a table or a side-by-side diff. */
  wide?: boolean;
  /** Escape and the backdrop do nothing while something is saving. */
  busy?: boolean;
  onClose: () => void;
  children: ReactNode;
};

/**
 * A modal for forms larger than a yes/no question. The native <dialog> traps focus and returns it
 * to the button that opened it; the caller's state, not the browser, decides when it is open.
 */
export function ModalDialog({ open, title, description, wide = false, busy = false, onClose, children }: ModalDialogProps) {
  const ref = useModalDialog(open);
  const titleId = useId();

  return (
    <dialog
      ref={ref}
      className={classNames("dialog", "modal-dialog", wide && "modal-dialog-wide")}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      {open && (
        <>
          <div>
            <h2 className="dialog-title" id={titleId}>
              {title}
            </h2>
            {description && <p className="dialog-body">{description}</p>}
          </div>
          {children}
        </>
      )}
    </dialog>
  );
}
