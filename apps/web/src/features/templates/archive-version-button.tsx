import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useInvalidateTemplates } from "./use-invalidate-templates.ts";
import { versionLabel } from "./version-label.ts";

/** Retires an old published version; notifications that pinned it still render with it. */
export function ArchiveVersionButton({ templateKey, version }: { templateKey: string; version: number }) {
  const trpc = useTRPC();
  const invalidateTemplates = useInvalidateTemplates();
  const archive = useMutation(trpc.templates.archive.mutationOptions({ onSuccess: invalidateTemplates }));
  const [confirming, setConfirming] = useState(false);

  return (
    <>
      <Button
        size="sm"
        onClick={() => {
          archive.reset();
          setConfirming(true);
        }}
      >
        Archive
        <span className="visually-hidden"> {versionLabel(version)}</span>
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`Archive ${versionLabel(version)}?`}
        confirmLabel={`Archive ${versionLabel(version)}`}
        tone="primary"
        pending={archive.isPending}
        error={archive.error ? getErrorMessage(archive.error) : null}
        onCancel={() => setConfirming(false)}
        onConfirm={() => archive.mutate({ key: templateKey, version }, { onSuccess: () => setConfirming(false) })}
      >
        <p>
          It stays readable here, and notifications created while it was current still render with it. A draft can still
          be started from it.
        </p>
      </ConfirmDialog>
    </>
  );
}
