import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";

/** Admins store the alert webhook's signing secret; it is sealed on the server and never shown again. */
export function AlertWebhookSecret() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.operations.alertWebhook.queryOptions());
  const [secret, setSecret] = useState("");
  const save = useMutation(
    trpc.operations.setAlertWebhookSecret.mutationOptions({
      onSuccess: () => {
        setSecret("");
        return queryClient.invalidateQueries({ queryKey: trpc.operations.alertWebhook.queryKey() });
      },
    }),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ secret });
  }

  return (
    <Card
      title="Alert webhook"
      description="Raised and resolved alerts are POSTed to the URL in Settings → General, signed with this secret (Herald-Signature: HMAC-SHA256 of the timestamp and the body). Without a secret nothing is sent."
    >
      <form className="stack" onSubmit={submit}>
        <p>
          {status.data?.secretStored ? "A signing secret is stored. Saving a new one replaces it." : "No signing secret is stored yet."}
        </p>
        {status.data && !status.data.canStoreSecrets && <Alert tone="warning">Set HERALD_SECRET_KEY on the server first: the secret is stored encrypted with it.</Alert>}
        <label className="field">
          <span className="field-label">Signing secret</span>
          <input className="input" type="password" autoComplete="off" value={secret} minLength={16} onChange={(e) => setSecret(e.target.value)} />
        </label>
        {save.isError && <Alert tone="error">{getErrorMessage(save.error)}</Alert>}
        {save.isSuccess && <Alert tone="success">Signing secret saved.</Alert>}
        <div>
          <Button type="submit" pending={save.isPending} disabled={secret.length === 0}>
            Save secret
          </Button>
        </div>
      </form>
    </Card>
  );
}
