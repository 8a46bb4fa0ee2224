import { FIELD_ROLES, attributeName, type AttributeType, type ColumnDraft, type ColumnRole } from "./mapping-draft.ts";

const TYPES: Array<{ type: AttributeType; label: string }> = [
  { type: "string", label: "Text" },
  { type: "number", label: "Number" },
  { type: "boolean", label: "Yes / no" },
  { type: "date", label: "Date" },
];

/** One row per column of the file: what it becomes, and for attributes their name and type. */
export function UsersColumns({
  header,
  sample,
  columns,
  onChange,
}: {
  header: string[];
  sample: string[][];
  columns: ColumnDraft[];
  onChange: (columns: ColumnDraft[]) => void;
}) {
  function update(index: number, change: Partial<ColumnDraft>) {
    onChange(columns.map((c, i) => (i === index ? { ...c, ...change } : c)));
  }
  return (
    <div className="table-wrap">
      <table className="table table-compact mapping-table">
        <thead>
          <tr>
            <th scope="col">Column</th>
            <th scope="col">First values</th>
            <th scope="col">Import as</th>
            <th scope="col">Attribute name</th>
            <th scope="col">Type</th>
          </tr>
        </thead>
        <tbody>
          {header.map((name, index) => {
            const column = columns[index]!;
            const label = name.trim() || `Column ${index + 1}`;
            const examples = sample.map((row) => row[index] ?? "").filter((v) => v.trim() !== "").slice(0, 3);
            return (
              <tr key={index}>
                <td className="mapping-column">{label}</td>
                <td className="mapping-sample cell-truncate" title={examples.join(", ")}>
                  {examples.join(", ") || "—"}
                </td>
                <td>
                  <select
                    className="input input-sm select"
                    aria-label={`Import ${label} as`}
                    value={column.role}
                    onChange={(event) => {
                      const role = event.target.value as ColumnRole;
                      update(index, role === "attribute" && !column.name ? { role, name: attributeName(name) } : { role });
                    }}
                  >
                    {FIELD_ROLES.map((f) => (
                      <option key={f.role} value={f.role}>
                        {f.label}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  {column.role === "attribute" && (
                    <input
                      className="input input-sm input-mono"
                      aria-label={`Attribute name for ${label}`}
                      value={column.name}
                      spellCheck={false}
                      onChange={(event) => update(index, { name: event.target.value })}
                    />
                  )}
                </td>
                <td>
                  {column.role === "attribute" && (
                    <select
                      className="input input-sm select"
                      aria-label={`Type of ${label}`}
                      value={column.type}
                      onChange={(event) => update(index, { type: event.target.value as AttributeType })}
                    >
                      {TYPES.map((t) => (
                        <option key={t.type} value={t.type}>
                          {t.label}
                        </option>
                      ))}
                    </select>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
