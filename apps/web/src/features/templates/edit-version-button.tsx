import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useInvalidateTemplates } from "./use-invalidate-templates.ts";
import { versionLabel } from "./version-label.ts";

/**
 * Starts a draft copied from a published or archived version. With a draft already open it asks
 * first: replacing it throws its unpublished work away.
 */
export function EditVersionButton({
  templateKey,
  version,
  hasDraft,
  variant = "secondary",
  size = "md",
  children,
  onStarted,
}: {
  templateKey: string;
  version: number;
  hasDraft: boolean;
  variant?: "primary" | "secondary";
  size?: "md" | "sm";
  children: string;
  onStarted?: () => void;
}) {
  const trpc = useTRPC();
  const invalidateTemplates = useInvalidateTemplates();
  const editVersion = useMutation(trpc.templates.editVersion.mutationOptions({ onSuccess: invalidateTemplates }));
  const [confirming, setConfirming] = useState(false);

  const start = (replaceDraft: boolean) =>
    editVersion.mutate(
      { key: templateKey, version, replaceDraft },
      {
        onSuccess: () => {
          setConfirming(false);
          onStarted?.();
        },
      },
    );

  return (
    <>
      <Button
        variant={variant}
        size={size}
        pending={editVersion.isPending && !confirming}
        onClick={() => {
          editVersion.reset();
          if (hasDraft) setConfirming(true);
          else start(false);
        }}
      >
        {children}
      </Button>
      {!confirming && editVersion.error && <Alert tone="error">{getErrorMessage(editVersion.error)}</Alert>}
      <ConfirmDialog
        open={confirming}
        title="Replace the open draft?"
        confirmLabel={`Replace with ${versionLabel(version)}`}
        pending={editVersion.isPending}
        error={editVersion.error ? getErrorMessage(editVersion.error) : null}
        onCancel={() => setConfirming(false)}
        onConfirm={() => start(true)}
      >
        <p>{`The draft's unpublished changes are thrown away, and a new draft starts from ${versionLabel(version)}.`}</p>
      </ConfirmDialog>
    </>
  );
}
