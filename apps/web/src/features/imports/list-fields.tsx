import { SelectField, TextField } from "../../components/ui/field.tsx";
import type { MappingDraft } from "./mapping-draft.ts";

/** The fields of a suppressions or opt-outs import: which column holds what, or one value for every row. */
export function ListFields({ header, draft, onChange }: { header: string[]; draft: MappingDraft; onChange: (draft: MappingDraft) => void }) {
  const columnOptions = header.map((name, index) => (
    <option key={index} value={`col:${index}`}>
      Column “{name.trim() || index + 1}”
    </option>
  ));
  const optOuts = draft.kind === "opt_outs";
  const categoryIsColumn = draft.category.startsWith("col:");
  return (
    <div className="mapping-fields">
      <SelectField
        label={optOuts ? "User id column" : "Address column"}
        hint={optOuts ? "Your id for each user: users Herald has not seen yet are created." : "Email addresses or E.164 phone numbers."}
        value={draft.keyColumn}
        onChange={(event) => onChange({ ...draft, keyColumn: Number(event.target.value) })}
      >
        {header.map((name, index) => (
          <option key={index} value={index}>
            {name.trim() || `Column ${index + 1}`}
          </option>
        ))}
      </SelectField>
      <SelectField label="Channel" value={draft.channel} onChange={(event) => onChange({ ...draft, channel: event.target.value })}>
        {optOuts && <option value="all">Every channel</option>}
        <option value="email">Email</option>
        <option value="sms">SMS</option>
        {optOuts && <option value="push">Push</option>}
        {columnOptions}
      </SelectField>
      {optOuts && (
        <>
          <SelectField
            label="Category from"
            value={categoryIsColumn ? draft.category : "fixed"}
            onChange={(event) => onChange({ ...draft, category: event.target.value === "fixed" ? "" : event.target.value })}
          >
            <option value="fixed">One category for every row</option>
            {columnOptions}
          </SelectField>
          {!categoryIsColumn && (
            <TextField
              label="Category"
              hint="Its key or an alias, e.g. marketing."
              value={draft.category}
              spellCheck={false}
              onChange={(event) => onChange({ ...draft, category: event.target.value })}
            />
          )}
        </>
      )}
    </div>
  );
}
