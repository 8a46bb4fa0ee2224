import type { ImportMapping, PreviewRow } from "./import-types.ts";

type Record = Extract<PreviewRow, { ok: true }>["record"];

function columnsFor(mapping: ImportMapping): Array<{ label: string; value: (record: Record) => string }> {
  const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));
  switch (mapping.kind) {
    case "users":
      return [
        { label: "External id", value: (r) => (r.kind === "users" ? r.externalId : "") },
        ...(["email", "phone", "timezone", "locale"] as const)
          .filter((field) => mapping.fields[field] !== undefined)
          .map((field) => ({ label: field[0]!.toUpperCase() + field.slice(1), value: (r: Record) => (r.kind === "users" ? text(r[field]) : "") })),
        ...mapping.attributes.map((a) => ({ label: a.name, value: (r: Record) => (r.kind === "users" ? text(r.attributes[a.name]) : "") })),
      ];
    case "suppressions":
      return [
        { label: "Channel", value: (r) => (r.kind === "suppressions" ? r.channel : "") },
        { label: "Address", value: (r) => (r.kind === "suppressions" ? r.address : "") },
      ];
    case "opt_outs":
      return [
        { label: "User", value: (r) => (r.kind === "opt_outs" ? r.userId : "") },
        { label: "Category", value: (r) => (r.kind === "opt_outs" ? r.category : "") },
        { label: "Channels", value: (r) => (r.kind === "opt_outs" ? r.channels.join(", ") : "") },
      ];
    case "devices":
      return [
        { label: "User", value: (r) => (r.kind === "devices" ? r.userId : "") },
        { label: "Platform", value: (r) => (r.kind === "devices" ? r.platform : "") },
        { label: "Token", value: (r) => (r.kind === "devices" ? r.token : "") },
      ];
    case "activities":
      return [
        { label: "User", value: (r) => (r.kind === "activities" ? r.userId : "") },
        { label: "Activity", value: (r) => (r.kind === "activities" ? r.name : "") },
        { label: "Occurred at (UTC)", value: (r) => (r.kind === "activities" ? r.occurredAt : "") },
        ...(mapping.key === undefined ? [] : [{ label: "Key", value: (r: Record) => (r.kind === "activities" ? text(r.key) : "") }]),
        ...(mapping.properties === undefined
          ? []
          : [{ label: "Properties", value: (r: Record) => (r.kind === "activities" && Object.keys(r.properties).length > 0 ? JSON.stringify(r.properties) : "") }]),
      ];
  }
}

/** The first rows exactly as they would be stored, or the reason each would be refused. */
export function PreviewTable({ rows, mapping }: { rows: PreviewRow[]; mapping: ImportMapping }) {
  const columns = columnsFor(mapping);
  return (
    <div className="table-wrap">
      <table className="table table-compact preview-table" aria-label="Preview">
        <thead>
          <tr>
            <th scope="col" className="cell-number import-row-number">
              Row
            </th>
            {columns.map((c) => (
              <th scope="col" key={c.label}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.row} className={row.ok ? undefined : "preview-refused"}>
              <td className="cell-number import-row-number">{row.row}</td>
              {row.ok ? (
                columns.map((c) => (
                  <td key={c.label} className="cell-break">
                    {c.value(row.record)}
                  </td>
                ))
              ) : (
                <td colSpan={columns.length} className="preview-reason">
                  Refused: {row.reason}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
