import { Badge } from "../../components/ui/badge.tsx";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import type { TemplateVersion } from "./template-types.ts";
import { versionLabel } from "./version-label.ts";

/** One line on what the editor shows: which version, whether it is saved, and by whom. */
export function EditorStatus({
  shown,
  isDirty,
  canEdit,
}: {
  /** The draft or version on screen; null for a template with neither yet. */
  shown: TemplateVersion | null;
  isDirty: boolean;
  canEdit: boolean;
}) {
  if (shown && shown.status !== "draft") {
    return (
      <p className="template-status">
        <Badge tone="success">{`${versionLabel(shown.version)} · current`}</Badge>
        <span>
          {canEdit
            ? "Published versions never change: start a draft from it to edit."
            : "Published: new notifications use it. Your role can read and preview templates."}
        </span>
      </p>
    );
  }
  return (
    <p className="template-status" aria-live="polite">
      <Badge tone="warning">{shown?.basedOn ? `Draft from ${versionLabel(shown.basedOn)}` : "Draft"}</Badge>
      {isDirty ? (
        <span className="template-unsaved">Unsaved changes</span>
      ) : shown ? (
        <span>
          {"Saved "}
          <RelativeTime iso={shown.updatedAt} />
          {shown.updatedBy && ` by ${shown.updatedBy}`}
        </span>
      ) : (
        <span>Not saved yet</span>
      )}
    </p>
  );
}
