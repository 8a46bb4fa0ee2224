import { useEffect, useEffectEvent } from "react";

/** Ctrl-S (⌘S on a Mac) calls `save` instead of the browser's "Save page as…". */
export function useSaveShortcut(save: () => void, isEnabled: boolean) {
  const onSave = useEffectEvent(save);
  useEffect(() => {
    if (!isEnabled) return;
    function onKeyDown(event: KeyboardEvent) {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "s") {
        event.preventDefault();
        onSave();
      }
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [isEnabled]);
}
