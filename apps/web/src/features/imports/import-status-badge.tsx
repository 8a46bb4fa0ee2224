import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import type { ImportStatus } from "./import-types.ts";

const STATUS: Record<ImportStatus, { label: string; tone: BadgeTone; title: string }> = {
  uploaded: { label: "Needs mapping", tone: "warning", title: "Uploaded: map its columns and start the import" },
  queued: { label: "Queued", tone: "info", title: "Waiting for a worker to pick it up" },
  running: { label: "Importing", tone: "accent", title: "A worker is applying its rows" },
  done: { label: "Done", tone: "success", title: "Every row was imported or reported" },
  failed: { label: "Failed", tone: "danger", title: "The import stopped; the reason is on its page" },
};

export function ImportStatusBadge({ status }: { status: ImportStatus }) {
  const s = STATUS[status];
  return (
    <Badge tone={s.tone} title={s.title}>
      {s.label}
    </Badge>
  );
}

export const KIND_LABELS = { users: "Users", suppressions: "Suppressions", opt_outs: "Opt-outs", devices: "Devices", activities: "Activities" } as const;
