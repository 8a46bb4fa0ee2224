import { useEffect } from "react";
import { useBlocker } from "react-router";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";

/** Asks before a link, Back or closing the tab throws away edits that were never saved. */
export function UnsavedChangesPrompt({ isDirty }: { isDirty: boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => isDirty && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!isDirty) return;
    function onBeforeUnload(event: BeforeUnloadEvent) {
      event.preventDefault();
    }
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [isDirty]);

  return (
    <ConfirmDialog
      open={blocker.state === "blocked"}
      title="Leave without saving?"
      confirmLabel="Leave and lose changes"
      onCancel={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    >
      <p>This broadcast has changes that are not saved. Save the draft first, or leave them behind.</p>
    </ConfirmDialog>
  );
}
