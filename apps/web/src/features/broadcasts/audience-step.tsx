import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { SelectField, TextField } from "../../components/ui/field.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import type { ComposerDraft, DraftErrors } from "./composer-draft.ts";
import { formatCount } from "./format-count.ts";

type StepProps = { draft: ComposerDraft; errors: DraftErrors; onChange: (patch: Partial<ComposerDraft>) => void };

/** Step 1: the broadcast's name, the segment it goes to, and the share held out to measure lift. */
export function AudienceStep({ draft, errors, onChange }: StepProps) {
  const trpc = useTRPC();
  const segments = useQuery(trpc.segments.list.queryOptions({ limit: 100 }));
  const items = segments.data?.items ?? [];
  // Its rule in words, so nobody sends to the wrong list by its name alone.
  const chosen = items.find((segment) => segment.id === draft.segmentId);

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
      <SelectField
        label="Segment"
        name="segment"
        value={draft.segmentId}
        disabled={segments.isPending}
        onChange={(event) => onChange({ segmentId: event.target.value })}
        error={errors.segmentId ?? (segments.isError ? getErrorMessage(segments.error) : null)}
        hint={
          <>
            Who gets it. Its rule is read once, when sending starts. <Link to="/segments/new">Build a new segment</Link>
          </>
        }
      >
        <option value="">{segments.isPending ? "Loading segments…" : items.length === 0 ? "No segments yet" : "Choose a segment…"}</option>
        {items.map((segment) => (
          <option key={segment.id} value={segment.id}>
            {segment.size === null ? segment.name : `${segment.name} (${formatCount(segment.size)})`}
          </option>
        ))}
      </SelectField>
      {chosen && (
        <div className="composer-segment">
          <p className="composer-label">Who is in it</p>
          <p className="composer-segment-words">{chosen.words}</p>
        </div>
      )}
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
