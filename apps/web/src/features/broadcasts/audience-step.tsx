import { Link } from "react-router";
import { SegmentPicker } from "../../components/pickers/segment-picker.tsx";
import { TextField } from "../../components/ui/field.tsx";
import type { ComposerDraft, DraftErrors } from "./composer-draft.ts";

type StepProps = { draft: ComposerDraft; errors: DraftErrors; onChange: (patch: Partial<ComposerDraft>) => void };

/** Step 1: the broadcast's name, the segment it goes to, and the share held out to measure lift. */
export function AudienceStep({ draft, errors, onChange }: StepProps) {
  return (
    <div className="composer-fields">
      <TextField
        label="Name"
        name="name"
        autoComplete="off"
        maxLength={200}
        placeholder="e.g. Winter sale"
        hint="For your team: recipients never see it."
        value={draft.name}
        onChange={(event) => onChange({ name: event.target.value })}
        error={errors.name}
      />
      <SegmentPicker
        value={draft.segmentId}
        onChange={(segment) => onChange({ segmentId: segment.id })}
        showWords
        error={errors.segmentId}
        hint={
          <>
            Who gets it. Its rule is read once, when sending starts. <Link to="/segments/new">Build a new segment</Link>
          </>
        }
      />
      <TextField
        label="Holdout (%)"
        name="holdout"
        type="number"
        min={0}
        max={50}
        step={0.1}
        className="composer-field-narrow"
        hint="Optional: a share of the segment that deliberately gets nothing, to measure what the broadcast changed. 0 to 50."
        value={draft.holdoutPercent}
        onChange={(event) => onChange({ holdoutPercent: event.target.value })}
        error={errors.holdoutPercent}
      />
    </div>
  );
}
