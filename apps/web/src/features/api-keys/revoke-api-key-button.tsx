import { useMutation } from "@tanstack/react-query";
import { ConfirmMutationButton } from "../../components/ui/confirm-mutation-button.tsx";
import type { ApiKey } from "../../lib/api-types.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useInvalidateApiKeys } from "./use-invalidate-api-keys.ts";

/** Revoking cannot be undone, and whatever uses the key breaks at once: hence the question. */
export function RevokeApiKeyButton({ apiKey }: { apiKey: ApiKey }) {
  const trpc = useTRPC();
  const invalidateApiKeys = useInvalidateApiKeys();
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions({ onSuccess: invalidateApiKeys }));

  return (
    <ConfirmMutationButton
      label="Revoke"
      title={`Revoke “${apiKey.name}”?`}
      confirmLabel="Revoke key"
      mutation={revoke}
      run={(done) => revoke.mutate({ id: apiKey.id }, { onSuccess: done })}
    >
      <p>
        Requests with <code className="code">{apiKey.prefix}…</code> are refused from now on. This cannot be undone: whatever uses the key needs a
        new one.
      </p>
    </ConfirmMutationButton>
  );
}
