import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useInvalidateTemplates } from "./use-invalidate-templates.ts";
import { versionLabel } from "./version-label.ts";

/** Throws the draft away; what is published stays as it is. */
export function DiscardDraftButton({ templateKey, currentVersion }: { templateKey: string; currentVersion: number | null }) {
  const trpc = useTRPC();
  const invalidateTemplates = useInvalidateTemplates();
  const discard = useMutation(trpc.templates.discardDraft.mutationOptions({ onSuccess: invalidateTemplates }));
  const [confirming, setConfirming] = useState(false);

  return (
    <>
      <Button
        variant="ghost"
        onClick={() => {
          discard.reset();
          setConfirming(true);
        }}
      >
        Discard draft
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Discard the draft?"
        confirmLabel="Discard draft"
        pending={discard.isPending}
        error={discard.error ? getErrorMessage(discard.error) : null}
        onCancel={() => setConfirming(false)}
        onConfirm={() => discard.mutate({ key: templateKey }, { onSuccess: () => setConfirming(false) })}
      >
        <p>
          {currentVersion === null
            ? "Its content and variables are deleted. Nothing has been published yet, so the template is left empty."
            : `Its changes are deleted. ${versionLabel(currentVersion)} stays published and keeps being sent.`}
        </p>
      </ConfirmDialog>
    </>
  );
}
