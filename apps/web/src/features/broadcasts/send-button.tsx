import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { readSchedule, type ComposerDraft } from "./composer-draft.ts";
import { describeSchedule } from "./describe-schedule.ts";
import { useDryRun } from "./dry-run-card.tsx";
import { formatCount } from "./format-count.ts";

/** "Send now" or "Schedule", after a confirmation that says how many notifications go out and when. */
export function SendButton({ broadcastId, name, draft, disabled }: { broadcastId: string; name: string; draft: ComposerDraft; disabled: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const dry = useDryRun(broadcastId);
  const schedule = useMutation(
    trpc.broadcasts.schedule.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.broadcasts.pathKey() }) }),
  );
  const [confirming, setConfirming] = useState(false);
  const isNow = draft.scheduleKind === "now";
  const label = isNow ? "Send now" : "Schedule";
  const nobody = dry.data ? dry.data.audience === 0 || dry.data.sendable === 0 : false;

  return (
    <>
      <Button
        variant="primary"
        disabled={disabled || !dry.data || nobody}
        title={nobody ? "Nobody would get it: see the dry run" : undefined}
        onClick={() => {
          schedule.reset();
          setConfirming(true);
        }}
      >
        {label}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={isNow ? `Send “${name}” now?` : `Schedule “${name}”?`}
        confirmLabel={isNow ? "Send it now" : "Schedule it"}
        tone="primary"
        pending={schedule.isPending}
        error={schedule.error ? getErrorMessage(schedule.error) : null}
        onCancel={() => setConfirming(false)}
        onConfirm={() => schedule.mutate({ id: broadcastId, schedule: readSchedule(draft) }, { onSuccess: () => setConfirming(false) })}
      >
        <p className="dialog-paragraph">
          {dry.data
            ? `About ${formatCount(dry.data.sendable)} notification${dry.data.sendable === 1 ? "" : "s"} to the ${formatCount(dry.data.audience - dry.data.heldOut)} people in the segment who are not held out.`
            : "The notifications go to everyone in the segment who is not held out."}{" "}
          {isNow ? "Sending starts at once." : `Sending starts: ${describeSchedule(readSchedule(draft))}.`}
        </p>
        <p className="dialog-paragraph">
          {isNow
            ? "Who is in the segment is decided now. While it sends you can pause or cancel it."
            : "Who is in the segment is decided when sending starts. Until then you can unschedule it to edit it again."}
        </p>
      </ConfirmDialog>
    </>
  );
}
