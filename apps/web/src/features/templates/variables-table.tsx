import { VARIABLE_TYPES } from "@herald/core/browser";
import { Button } from "../../components/ui/button.tsx";
import { variableAddress } from "./field-address.ts";
import { newVariableRow, type VariableRow } from "./template-draft.ts";
import type { VariableType } from "./template-types.ts";

// What an example of each type looks like, typed as the input expects it.
const examplePlaceholders: Record<VariableType, string> = {
  string: "e.g. Ada",
  number: "e.g. 42",
  boolean: "true or false",
  date: "e.g. 2026-03-01",
  url: "https://…",
  list: 'e.g. ["a", "b"]',
  object: 'e.g. {"id": 7}',
};

/** The variables a version declares; their examples fill the preview and test sends. */
export function VariablesTable({
  rows,
  readOnly,
  errorFor,
  onChange,
}: {
  rows: VariableRow[];
  readOnly: boolean;
  errorFor: (index: number, field: string) => string | undefined;
  onChange: (rows: VariableRow[]) => void;
}) {
  const setRow = (id: string, change: Partial<VariableRow>) => onChange(rows.map((row) => (row.id === id ? { ...row, ...change } : row)));

  return (
    <>
      {rows.length === 0 ? (
        <p className="template-empty-note">
          No variables declared. Declare each <code className="code">{"{{ data.… }}"}</code> or{" "}
          <code className="code">{"{{ user.… }}"}</code> the copy uses, with an example for the preview.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table table-compact template-variables">
            <colgroup>
              <col className="template-variables-name" />
              <col className="template-variables-type" />
              <col className="template-variables-required" />
              <col className="template-variables-example" />
              <col />
              {!readOnly && <col className="template-variables-actions" />}
            </colgroup>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Required</th>
                <th scope="col">Example</th>
                <th scope="col">Description</th>
                {!readOnly && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => {
                const name = row.name.trim() || `variable ${index + 1}`;
                const errors = ["name", "type", "example", "description"].map((field) => errorFor(index, field)).filter(Boolean);
                return (
                  <tr key={row.id}>
                    <td>
                      <input
                        className="input input-sm input-mono"
                        aria-label={`Name of variable ${index + 1}`}
                        placeholder="data.order_id"
                        spellCheck={false}
                        data-field={variableAddress(index, "name")}
                        aria-invalid={errorFor(index, "name") ? true : undefined}
                        readOnly={readOnly}
                        value={row.name}
                        onChange={(event) => setRow(row.id, { name: event.target.value })}
                      />
                      {errors.map((error) => (
                        <p className="field-error" key={error}>
                          {error}
                        </p>
                      ))}
                    </td>
                    <td>
                      <select
                        className="input input-sm select"
                        aria-label={`Type of ${name}`}
                        disabled={readOnly}
                        value={row.type}
                        onChange={(event) => setRow(row.id, { type: VARIABLE_TYPES.find((type) => type === event.target.value) ?? "string" })}
                      >
                        {VARIABLE_TYPES.map((type) => (
                          <option key={type} value={type}>
                            {type}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td className="template-cell-check">
                      <input
                        type="checkbox"
                        className="checkbox-input"
                        aria-label={`${name} is required`}
                        disabled={readOnly}
                        checked={row.required}
                        onChange={(event) => setRow(row.id, { required: event.target.checked })}
                      />
                    </td>
                    <td>
                      <input
                        className="input input-sm"
                        aria-label={`Example of ${name}`}
                        placeholder={readOnly ? undefined : examplePlaceholders[row.type]}
                        spellCheck={false}
                        data-field={variableAddress(index, "example")}
                        aria-invalid={errorFor(index, "example") ? true : undefined}
                        readOnly={readOnly}
                        value={row.example}
                        onChange={(event) => setRow(row.id, { example: event.target.value })}
                      />
                    </td>
                    <td>
                      <input
                        className="input input-sm"
                        aria-label={`Description of ${name}`}
                        placeholder={readOnly ? undefined : "What it holds"}
                        data-field={variableAddress(index, "description")}
                        readOnly={readOnly}
                        value={row.description}
                        onChange={(event) => setRow(row.id, { description: event.target.value })}
                      />
                    </td>
                    {!readOnly && (
                      <td className="cell-actions">
                        <Button size="sm" variant="ghost" onClick={() => onChange(rows.filter((other) => other.id !== row.id))}>
                          Remove
                          <span className="visually-hidden"> {name}</span>
                        </Button>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {!readOnly && (
        <div className="template-card-footer">
          <Button size="sm" onClick={() => onChange([...rows, newVariableRow()])}>
            Add variable
          </Button>
        </div>
      )}
    </>
  );
}
