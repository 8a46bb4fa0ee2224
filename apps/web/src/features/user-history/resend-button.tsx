import { skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import type { UserNotification } from "../../lib/api-types.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";

/**
 * Resends a notification as a new one linked to it. The dialog says up front what the gates
 * would do now (Explain), because a resend to an opted-out user is skipped like any send.
 */
export function ResendButton({ notification }: { notification: UserNotification }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [resentId, setResentId] = useState<string | null>(null);
  const userId = notification.userId;
  const lane = notification.lane === "critical" ? "critical" : "bulk";
  const channel = notification.channel === "push" || notification.channel === "sms" ? notification.channel : "email";
  const preview = useQuery({
    ...trpc.users.explain.queryOptions(
      open && userId ? { userId, subject: { kind: "category", category: notification.category, channel, lane } } : skipToken,
    ),
    staleTime: 0,
  });
  const resend = useMutation(
    trpc.notifications.resend.mutationOptions({
      onSuccess: (result) => {
        setOpen(false);
        setResentId(result.id);
        void queryClient.invalidateQueries(trpc.notifications.userHistory.pathFilter());
      },
    }),
  );
  if (!userId) return null;
  const verdict = preview.data?.explanations[0];

  return (
    <>
      <Button
        size="sm"
        onClick={() => {
          resend.reset();
          setOpen(true);
        }}
      >
        Resend…
      </Button>
      {resentId && (
        <span className="saved" role="status">
          Queued as notification {resentId}: it appears at the top of the timeline.
        </span>
      )}
      <ConfirmDialog
        open={open}
        title={`Resend notification ${notification.id}?`}
        confirmLabel="Resend"
        tone="primary"
        pending={resend.isPending}
        error={resend.error ? getErrorMessage(resend.error) : null}
        onCancel={() => setOpen(false)}
        onConfirm={() => resend.mutate({ id: notification.id })}
      >
        <p className="dialog-paragraph">
          A new notification, linked to this one, with the same content. It goes through the gates like any send: if the
          user has opted out, the address is suppressed or it is quiet hours, it is skipped or deferred, and the timeline
          says why.
        </p>
        <p className="dialog-paragraph">
          {preview.isPending ? (
            <Spinner size="sm" label="Asking the gates" />
          ) : preview.isError ? (
            <span className="muted">The gates could not be asked: {getErrorMessage(preview.error)}</span>
          ) : verdict ? (
            <>
              If sent now — <strong>{verdict.headline}</strong>
            </>
          ) : null}
        </p>
      </ConfirmDialog>
    </>
  );
}
