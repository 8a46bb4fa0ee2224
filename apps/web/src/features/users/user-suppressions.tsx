import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { ChannelBadge } from "../../components/ui/channel-badge.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { ModalDialog } from "../../components/ui/modal-dialog.tsx";
import type { UserSuppression } from "../../lib/api-types.ts";
import { formatDateTime } from "../../lib/format-date.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";

const reasonLabels: Record<string, string> = {
  hard_bounce: "Hard bounce",
  complaint: "Spam complaint",
  stop: "STOP reply",
  invalid: "Invalid address",
  manual: "Blocked by an operator",
  import: "Imported list",
};

/** Addresses of this user that providers refused; each can be lifted, with a reason, by support. */
export function UserSuppressions({ userId, suppressions, canLift }: { userId: string; suppressions: UserSuppression[]; canLift: boolean }) {
  const [lifting, setLifting] = useState<UserSuppression | null>(null);
  return (
    <Card title="Suppressions" description="Addresses Herald will not send to, whatever the preferences say, until lifted." flush>
      {suppressions.length === 0 ? (
        <p className="card-notice muted">None of this user's addresses is suppressed.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">Address</th>
                <th scope="col">Why</th>
                <th scope="col">Since</th>
                {canLift && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {suppressions.map((s) => (
                <tr key={`${s.channel}/${s.address}`}>
                  <td>
                    <ChannelBadge channel={s.channel} />
                  </td>
                  <td className="cell-break">
                    <code className="code">{s.address}</code>
                  </td>
                  <td>
                    <Badge tone="danger">{reasonLabels[s.reason] ?? s.reason}</Badge>
                    <span className="cell-sub">reported by {s.source}</span>
                  </td>
                  <td className="cell-nowrap">{formatDateTime(s.createdAt)}</td>
                  {canLift && (
                    <td className="cell-actions">
                      <Button size="sm" onClick={() => setLifting(s)}>
                        Lift…
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LiftSuppressionDialog userId={userId} suppression={lifting} onClose={() => setLifting(null)} />
    </Card>
  );
}

function LiftSuppressionDialog({ userId, suppression, onClose }: { userId: string; suppression: UserSuppression | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const lift = useMutation(
    trpc.users.liftSuppression.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.users.get.queryFilter({ userId })),
    }),
  );

  function close() {
    setReason("");
    setError(null);
    lift.reset();
    onClose();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!suppression) return;
    if (reason.trim().length < 3) {
      setError("Say why you lift it, e.g. “the customer fixed their mailbox”. It goes in the audit log.");
      return;
    }
    lift.mutate({ userId, channel: suppression.channel, address: suppression.address, reason: reason.trim() }, { onSuccess: close });
  }

  return (
    <ModalDialog open={suppression !== null} title="Lift this suppression?" busy={lift.isPending} onClose={close}>
      {suppression && (
        <form className="form" onSubmit={submit} noValidate>
          <p className="dialog-paragraph">
            Herald will send to <code className="code">{suppression.address}</code> again. If the cause is still there (a
            mailbox that does not exist, a complaint), the provider will refuse it again — and repeated bounces or complaints
            hurt the whole workspace's sending reputation.
          </p>
          <TextField
            label="Reason"
            name="reason"
            hint="Recorded in the audit log with your name."
            maxLength={500}
            value={reason}
            error={error}
            onChange={(event) => {
              setReason(event.target.value);
              setError(null);
            }}
          />
          {lift.isError && <Alert tone="error">{getErrorMessage(lift.error)}</Alert>}
          <div className="dialog-actions">
            <Button onClick={close} disabled={lift.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" pending={lift.isPending}>
              Lift suppression
            </Button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
