import { useEffect, useId, useRef, type ReactNode } from "react";
import { classNames } from "../../lib/class-names.ts";

type ModalDialogProps = {
  open: boolean;
  title: string;
  description?: ReactNode;
  /** Wide enough for a table. */
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
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={classNames("dialog", "segment-dialog", wide && "segment-dialog-wide")}
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
