import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { describeFilter, type DeadLetterFilter } from "./dead-letter-filter.ts";

type Target = { kind: "selected" } | { kind: "matching" };

/**
 * "Replay selected" and "Replay all matching", each behind a question: a replay resets what the
 * engine knew about earlier attempts, and without a fix for the cause it only dies again.
 */
export function ReplayDeadLetters({
  selectedIds,
  filter,
  loaded,
  complete,
  onReplayed,
}: {
  selectedIds: string[];
  filter: DeadLetterFilter;
  /** How many dead letters are on screen, and whether that is all that match. */
  loaded: number;
  complete: boolean;
  onReplayed: (replayed: number) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const replay = useMutation(
    trpc.deadLetters.replay.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.deadLetters.list.pathFilter()),
    }),
  );
  const [target, setTarget] = useState<Target | null>(null);

  function open(next: Target) {
    replay.reset();
    setTarget(next);
  }

  function confirm() {
    if (!target) return;
    const input = target.kind === "selected" ? { ids: selectedIds } : { filter };
    replay.mutate(input, {
      onSuccess: (result) => {
        setTarget(null);
        onReplayed(result.replayed);
      },
    });
  }

  const count = selectedIds.length;
  // There is no count endpoint: the list knows the exact number only once every page is loaded.
  const matching = complete
    ? `${loaded === 1 ? "the one" : `the ${loaded.toLocaleString()}`} listed, plus any that die before you confirm`
    : `at least ${plural(loaded, "dead letter")}, including those not loaded yet`;

  return (
    <>
      <Button size="sm" variant="primary" disabled={count === 0} onClick={() => open({ kind: "selected" })}>
        Replay selected{count > 0 ? ` (${count})` : ""}
      </Button>
      <Button size="sm" onClick={() => open({ kind: "matching" })}>
        Replay all matching
      </Button>
      <ConfirmDialog
        open={target !== null}
        title={target?.kind === "selected" ? `Replay ${plural(count, "dead letter")}?` : "Replay every matching dead letter?"}
        confirmLabel="Replay"
        tone="primary"
        pending={replay.isPending}
        error={replay.error ? getErrorMessage(replay.error) : null}
        onCancel={() => setTarget(null)}
        onConfirm={confirm}
      >
        {target?.kind === "matching" && (
          <p className="dialog-paragraph">
            This replays {describeFilter(filter)}: {matching}.
          </p>
        )}
        <p className="dialog-paragraph">
          Each goes back to <strong>pending</strong> with its attempts reset to 0 and its reason cleared, and is queued to
          send now with the content it had. Its log gains a “replayed” entry, and the audit log records who replayed it.
        </p>
        <p className="dialog-paragraph">If the cause is not fixed, it will die again.</p>
      </ConfirmDialog>
    </>
  );
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString()} ${noun}${count === 1 ? "" : "s"}`;
}
