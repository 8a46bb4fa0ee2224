import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { ModalDialog } from "../../components/ui/modal-dialog.tsx";
import type { ErasureSummary } from "../../lib/api-types.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";

/** Admins only: erase this user (right to be forgotten), after typing their id again. */
export function EraseUserZone({ userId, onErased }: { userId: string; onErased: (summary: ErasureSummary) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [confirmation, setConfirmation] = useState("");
  const erase = useMutation(
    trpc.users.erase.mutationOptions({
      onSuccess: async (summary) => {
        // Nothing about them may linger in the cache: their page, their timeline, search results.
        queryClient.removeQueries(trpc.users.pathFilter());
        queryClient.removeQueries(trpc.notifications.pathFilter());
        onErased(summary);
      },
    }),
  );
  const matches = confirmation === userId;

  function close() {
    setConfirmation("");
    erase.reset();
    setOpen(false);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (matches) erase.mutate({ userId, confirmation });
  }

  return (
    <Card title="Danger zone" className="card-danger" description="Erasing a user cannot be undone.">
      <div className="danger-row">
        <p className="danger-text">
          <strong>Erase this user</strong> (right to be forgotten): their profile, devices, preferences, quiet hours and activities
          are deleted; their notifications stay for the counts, without address, content or variables; their suppressions stay as
          hashes, so they are never mailed again.
        </p>
        <Button variant="danger" onClick={() => setOpen(true)}>
          Erase user…
        </Button>
      </div>
      <ModalDialog open={open} title={`Erase ${userId}?`} busy={erase.isPending} onClose={close}>
        <form className="form" onSubmit={submit} noValidate aria-label="Erase user">
          <p className="dialog-paragraph">
            Herald deletes everything it knows about <code className="code">{userId}</code> and anonymises their history, in one
            step. Notifications not yet sent to them are canceled. The audit log records that an erasure happened, not whom it
            concerned.
          </p>
          <TextField
            label={`Type ${userId} to confirm`}
            name="confirmation"
            autoComplete="off"
            spellCheck={false}
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
            hint="The id exactly as shown, case included."
          />
          {erase.isError && <Alert tone="error">{getErrorMessage(erase.error)}</Alert>}
          <div className="dialog-actions">
            <Button onClick={close} disabled={erase.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" pending={erase.isPending} disabled={!matches}>
              Erase permanently
            </Button>
          </div>
        </form>
      </ModalDialog>
    </Card>
  );
}

const ROWS: Array<[keyof ErasureSummary, string]> = [
  ["notificationsAnonymised", "Notifications anonymised"],
  ["notificationsCanceled", "Notifications canceled before sending"],
  ["notificationEventsScrubbed", "Event log entries with an address cut out"],
  ["sandboxMessagesScrubbed", "Sandbox messages anonymised"],
  ["webhookEventsScrubbed", "Provider webhooks anonymised"],
  ["suppressionsHashed", "Suppressions kept as hashes"],
  ["devicesDeleted", "Devices deleted"],
  ["preferencesDeleted", "Preferences deleted"],
  ["quietHoursDeleted", "Quiet hours deleted"],
  ["activitiesDeleted", "Activities deleted"],
  ["eventsDeleted", "Received events deleted"],
  ["broadcastHoldoutsDeleted", "Broadcast holdouts deleted"],
  ["importRowsDeleted", "Import rows deleted"],
  ["auditEntriesScrubbed", "Audit entries anonymised"],
];

/** What the page shows once the user is gone: what was done, and where the audit entry is. */
export function UserErased({ userId, summary, canReadAudit }: { userId: string; summary: ErasureSummary; canReadAudit: boolean }) {
  return (
    <Card title={`${userId} was erased`} description={`The audit log calls them ${summary.erasedRef} from now on.`} flush>
      <Alert tone="success">Nothing in Herald names this user any more. Their suppressions still stop their addresses.</Alert>
      <div className="table-wrap">
        <table className="table" aria-label="What the erasure did">
          <tbody>
            {ROWS.map(([key, label]) => (
              <tr key={key}>
                <th scope="row">{label}</th>
                <td className="cell-number">{String(summary[key])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {canReadAudit && (
        <p className="card-notice">
          <Link to="/settings/audit-log">Open the audit log</Link> to see the entry <code className="code">users.erase</code>.
        </p>
      )}
    </Card>
  );
}
