import { useEffect, useRef } from "react";

/**
 * A native <dialog> driven by React state: shown as a modal (focus trapped, returned on close)
 * while `open`, closed otherwise. The caller handles `cancel` (Escape) and keeps the state.
 */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return ref;
}
