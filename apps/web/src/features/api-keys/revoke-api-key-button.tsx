import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import type { ApiKey } from "../../lib/api-types.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useInvalidateApiKeys } from "./use-invalidate-api-keys.ts";

/** Revoking cannot be undone, and whatever uses the key breaks at once: hence the question. */
export function RevokeApiKeyButton({ apiKey }: { apiKey: ApiKey }) {
  const trpc = useTRPC();
  const invalidateApiKeys = useInvalidateApiKeys();
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions({ onSuccess: invalidateApiKeys }));
  const [confirming, setConfirming] = useState(false);

  return (
    <>
      <Button
        size="sm"
        variant="danger"
        onClick={() => {
          revoke.reset();
          setConfirming(true);
        }}
      >
        Revoke
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`Revoke “${apiKey.name}”?`}
        confirmLabel="Revoke key"
        pending={revoke.isPending}
        error={revoke.error ? getErrorMessage(revoke.error) : null}
        onCancel={() => setConfirming(false)}
        onConfirm={() => revoke.mutate({ id: apiKey.id }, { onSuccess: () => setConfirming(false) })}
      >
        <p>
          Requests with <code className="code">{apiKey.prefix}…</code> are refused from now on. This cannot be undone:
          whatever uses the key needs a new one.
        </p>
      </ConfirmDialog>
    </>
  );
}
