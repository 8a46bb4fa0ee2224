import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import type { TemplateVersionStatus } from "./template-types.ts";

const statuses: Record<TemplateVersionStatus, { tone: BadgeTone; label: string; meaning: string }> = {
  draft: { tone: "warning", label: "Draft", meaning: "Being edited: nothing is sent with it until it is published." },
  published: { tone: "info", label: "Published", meaning: "Frozen. Notifications created while it was current still render with it." },
  archived: { tone: "neutral", label: "Archived", meaning: "Retired: still renders what pinned it, but is no longer offered." },
};

/** A version's status; the current one says so, since it is what new notifications use. */
export function VersionStatusBadge({ status, isCurrent }: { status: TemplateVersionStatus; isCurrent: boolean }) {
  if (isCurrent) {
    return (
      <Badge tone="success" title="New notifications use this version.">
        Current
      </Badge>
    );
  }
  const { tone, label, meaning } = statuses[status];
  return (
    <Badge tone={tone} title={meaning}>
      {label}
    </Badge>
  );
}
