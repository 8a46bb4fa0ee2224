import { ColumnSelect } from "./column-select.tsx";
import type { MappingDraft } from "./mapping-draft.ts";

/** The fields of an activities import: who did what when, and optionally its key and properties. */
export function ActivitiesFields({ header, draft, onChange }: { header: string[]; draft: MappingDraft; onChange: (draft: MappingDraft) => void }) {
  return (
    <div className="mapping-fields">
      <ColumnSelect
        label="User id column"
        hint="Your id for each user: users Herald has not seen yet are created."
        header={header}
        value={draft.keyColumn}
        onChange={(keyColumn) => onChange({ ...draft, keyColumn })}
      />
      <ColumnSelect
        label="Activity name column"
        hint="Such as session_completed, as segments name it."
        header={header}
        value={draft.name}
        onChange={(name) => onChange({ ...draft, name })}
      />
      <ColumnSelect
        label="Occurred at column"
        hint="ISO 8601 with an offset, such as 2026-11-30T09:00:00+01:00 or …Z."
        header={header}
        value={draft.occurredAt}
        onChange={(occurredAt) => onChange({ ...draft, occurredAt })}
      />
      <ColumnSelect
        label="Activity key column"
        hint="Optional: your id for each activity. Without one, a row's content is its key."
        header={header}
        value={draft.activityKey}
        none="No key column"
        onChange={(activityKey) => onChange({ ...draft, activityKey })}
      />
      <ColumnSelect
        label="Properties column"
        hint='Optional: a JSON object per row, such as {"minutes":12}.'
        header={header}
        value={draft.properties}
        none="No properties"
        onChange={(properties) => onChange({ ...draft, properties })}
      />
    </div>
  );
}
