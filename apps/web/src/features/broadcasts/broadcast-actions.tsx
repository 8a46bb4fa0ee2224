import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import type { Broadcast } from "./broadcast-types.ts";
import { formatCount } from "./format-count.ts";

/** Pause, resume, unschedule and cancel, each offered only where the lifecycle allows it. */
export function BroadcastActions({ broadcast }: { broadcast: Broadcast }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: trpc.broadcasts.pathKey() });
  const pause = useMutation(trpc.broadcasts.pause.mutationOptions({ onSuccess }));
  const resume = useMutation(trpc.broadcasts.resume.mutationOptions({ onSuccess }));
  const unschedule = useMutation(trpc.broadcasts.unschedule.mutationOptions({ onSuccess }));
  const cancel = useMutation(trpc.broadcasts.cancel.mutationOptions({ onSuccess }));
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const { id, status } = broadcast;
  const error = pause.error ?? resume.error ?? unschedule.error;

  const reset = () => [pause, resume, unschedule, cancel].forEach((m) => m.reset());

  return (
    <div className="broadcast-actions">
      {status === "scheduled" && (
        <Button onClick={() => {
          reset();
          unschedule.mutate({ id });
        }} pending={unschedule.isPending} title="Back to a draft, to edit it or schedule it again">
          Unschedule
        </Button>
      )}
      {status === "sending" && (
        <Button onClick={() => {
          reset();
          pause.mutate({ id });
        }} pending={pause.isPending} title="Stops new sends within seconds; notifications in flight finish">
          Pause
        </Button>
      )}
      {status === "paused" && (
        <Button variant="primary" onClick={() => {
          reset();
          resume.mutate({ id });
        }} pending={resume.isPending}>
          Resume
        </Button>
      )}
      {(status === "scheduled" || status === "sending" || status === "paused") && (
        <Button variant="danger" onClick={() => {
          reset();
          setConfirmingCancel(true);
        }}>
          Cancel broadcast
        </Button>
      )}
      {error && (
        <div className="broadcast-actions-error">
          <Alert tone="error">{getErrorMessage(error)}</Alert>
        </div>
      )}
      <ConfirmDialog
        open={confirmingCancel}
        title={`Cancel “${broadcast.name}”?`}
        confirmLabel="Cancel broadcast"
        pending={cancel.isPending}
        error={cancel.error ? getErrorMessage(cancel.error) : null}
        onCancel={() => setConfirmingCancel(false)}
        onConfirm={() => cancel.mutate({ id }, { onSuccess: () => setConfirmingCancel(false) })}
      >
        <p>
          {status === "scheduled"
            ? "Nothing has been sent: it will not start."
            : `Notifications not yet sent are canceled${broadcast.targeted > 0 ? ` (of ${formatCount(broadcast.targeted)} targeted)` : ""}; those already with a provider still arrive. This cannot be undone.`}
        </p>
      </ConfirmDialog>
    </div>
  );
}
