import { SelectField } from "../../components/ui/field.tsx";

/** A choice of one of the file's columns; with `none`, also of no column at all (-1). */
export function ColumnSelect({
  label,
  hint,
  header,
  value,
  none,
  onChange,
}: {
  label: string;
  hint?: string;
  header: string[];
  value: number;
  none?: string;
  onChange: (column: number) => void;
}) {
  return (
    <SelectField label={label} hint={hint} value={value} onChange={(event) => onChange(Number(event.target.value))}>
      {none !== undefined && <option value={-1}>{none}</option>}
      {header.map((name, index) => (
        <option key={index} value={index}>
          {name.trim() || `Column ${index + 1}`}
        </option>
      ))}
    </SelectField>
  );
}
