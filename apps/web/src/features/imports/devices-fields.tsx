import { SelectField } from "../../components/ui/field.tsx";
import { ColumnSelect } from "./column-select.tsx";
import type { MappingDraft } from "./mapping-draft.ts";

/** The fields of a devices import: whose token, the token, and its platform (a column or one for every row). */
export function DevicesFields({ header, draft, onChange }: { header: string[]; draft: MappingDraft; onChange: (draft: MappingDraft) => void }) {
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
        label="Token column"
        hint="The push token: a token already registered moves to this row's user and is active again."
        header={header}
        value={draft.token}
        onChange={(token) => onChange({ ...draft, token })}
      />
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
    </div>
  );
}
