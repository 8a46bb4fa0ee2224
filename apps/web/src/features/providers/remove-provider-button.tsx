import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { channelLabel } from "../../lib/channels.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { providerKindLabel } from "./provider-kinds.ts";
import type { Provider } from "./provider-types.ts";
import { useInvalidateProviders } from "./use-invalidate-providers.ts";

/** Removing forgets the credentials, and the channel's traffic moves at once: hence the question. */
export function RemoveProviderButton({ provider, consequence }: { provider: Provider; consequence: string }) {
  const trpc = useTRPC();
  const invalidateProviders = useInvalidateProviders();
  const remove = useMutation(trpc.providers.remove.mutationOptions({ onSuccess: invalidateProviders }));
  const [confirming, setConfirming] = useState(false);
  const channel = channelLabel(provider.channel);
  const kind = providerKindLabel(provider.kind);

  return (
    <>
      <Button
        size="sm"
        variant="danger"
        onClick={() => {
          remove.reset();
          setConfirming(true);
        }}
      >
        Remove
        <span className="visually-hidden">{` the ${provider.role} ${channel} provider (${kind})`}</span>
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`Remove the ${provider.role} ${channel} provider?`}
        confirmLabel="Remove provider"
        pending={remove.isPending}
        error={remove.error ? getErrorMessage(remove.error) : null}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate({ channel: provider.channel, role: provider.role }, { onSuccess: () => setConfirming(false) })
        }
      >
        <p className="dialog-paragraph">
          {`Herald forgets this ${kind} configuration and its credentials: using it again means entering them again.`}
        </p>
        <p className="dialog-paragraph">{consequence}</p>
      </ConfirmDialog>
    </>
  );
}
