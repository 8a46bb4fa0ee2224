import { useEffect } from "react";
import { useBlocker } from "react-router";
import { ConfirmDialog } from "./confirm-dialog.tsx";

/** Asks before a link, Back or closing the tab throws away edits that were never saved. */
export function UnsavedChangesPrompt({ isDirty, message }: { isDirty: boolean; /** What is unsaved and how to keep it. */ message: string }) {
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
      <p>{message}</p>
    </ConfirmDialog>
  );
}
