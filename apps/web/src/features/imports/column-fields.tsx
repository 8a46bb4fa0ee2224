import { SelectField } from "../../components/ui/field.tsx";
import { ColumnSelect } from "./column-select.tsx";
import type { MappingDraft } from "./mapping-draft.ts";

type ColumnKey = "keyColumn" | "token" | "name" | "occurredAt" | "activityKey" | "properties";

interface ColumnField {
  key: ColumnKey;
  label: string;
  hint: string;
  /** Optional columns: the label of "no column". */
  none?: string;
}

const USER_ID: ColumnField = { key: "keyColumn", label: "User id column", hint: "Your id for each user: users Herald has not seen yet are created." };

/** Which column holds what, per kind of import that maps one column to each field. */
const COLUMN_FIELDS: Record<"devices" | "activities", ColumnField[]> = {
  devices: [USER_ID, { key: "token", label: "Token column", hint: "The push token: a token already registered moves to this row's user and is active again." }],
  activities: [
    USER_ID,
    { key: "name", label: "Activity name column", hint: "Such as session_completed, as segments name it." },
    { key: "occurredAt", label: "Occurred at column", hint: "ISO 8601 with an offset, such as 2026-11-30T09:00:00+01:00 or …Z." },
    { key: "activityKey", label: "Activity key column", hint: "Optional: your id for each activity. Without one, a row's content is its key.", none: "No key column" },
    { key: "properties", label: "Properties column", hint: 'Optional: a JSON object per row, such as {"minutes":12}.', none: "No properties" },
  ],
};

/** The fields of a devices or activities import; a device's platform is a column or one value for every row. */
export function ColumnFields({
  kind,
  header,
  draft,
  onChange,
}: {
  kind: "devices" | "activities";
  header: string[];
  draft: MappingDraft;
  onChange: (draft: MappingDraft) => void;
}) {
  return (
    <div className="mapping-fields">
      {COLUMN_FIELDS[kind].map((field) => (
        <ColumnSelect
          key={field.key}
          label={field.label}
          hint={field.hint}
          header={header}
          value={draft[field.key]}
          {...(field.none === undefined ? {} : { none: field.none })}
          onChange={(column) => onChange({ ...draft, [field.key]: column })}
        />
      ))}
      {kind === "devices" && (
        <SelectField label="Platform" value={draft.platform} onChange={(event) => onChange({ ...draft, platform: event.target.value })}>
          <option value="ios">iOS for every row</option>
          <option value="android">Android for every row</option>
          <option value="web">Web for every row</option>
          {header.map((name, index) => (
            <option key={index} value={`col:${index}`}>
              Column “{name.trim() || index + 1}”
            </option>
          ))}
        </SelectField>
      )}
    </div>
  );
}
