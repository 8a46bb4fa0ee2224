import { Button } from "../../components/ui/button.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { fieldAddress } from "./field-address.ts";
import { newRowId, type DataRow, type PushDraft } from "./template-draft.ts";
import { TextAreaField } from "./text-area-field.tsx";

type FieldsProps = {
  locale: string;
  value: PushDraft;
  readOnly: boolean;
  errorFor: (field: string) => string | undefined;
  onChange: (value: PushDraft) => void;
};

/** A push notification's title, body, image, deep link and data entries. */
export function PushFields({ locale, value, readOnly, errorFor, onChange }: FieldsProps) {
  const set = <K extends keyof PushDraft>(field: K, next: PushDraft[K]) => onChange({ ...value, [field]: next });
  const setRow = (id: string, change: Partial<DataRow>) =>
    set(
      "data",
      value.data.map((row) => (row.id === id ? { ...row, ...change } : row)),
    );

  return (
    <div className="form">
      <TextField
        label="Title"
        data-field={fieldAddress(locale, "push", "title")}
        readOnly={readOnly}
        value={value.title}
        onChange={(event) => set("title", event.target.value)}
        error={errorFor("title")}
      />
      <TextAreaField
        label="Body"
        rows={3}
        data-field={fieldAddress(locale, "push", "body")}
        readOnly={readOnly}
        value={value.body}
        onChange={(event) => set("body", event.target.value)}
        error={errorFor("body")}
      />
      <div className="template-form-row">
        <TextField
          label="Image URL"
          type="url"
          placeholder="https://…"
          spellCheck={false}
          hint="Optional. An https URL, or Liquid that renders one."
          data-field={fieldAddress(locale, "push", "imageUrl")}
          readOnly={readOnly}
          value={value.imageUrl}
          onChange={(event) => set("imageUrl", event.target.value)}
          error={errorFor("imageUrl")}
        />
        <TextField
          label="Deep link"
          placeholder="e.g. myapp://orders/{{ data.order_id }}"
          spellCheck={false}
          hint="Optional. Where tapping the notification opens the app."
          data-field={fieldAddress(locale, "push", "deepLink")}
          readOnly={readOnly}
          value={value.deepLink}
          onChange={(event) => set("deepLink", event.target.value)}
          error={errorFor("deepLink")}
        />
      </div>
      <fieldset className="template-fieldset">
        <legend className="field-label">Data</legend>
        <p className="field-hint">Key–value pairs handed to the app with the notification, not shown to the user.</p>
        {errorFor("data") && <p className="field-error">{errorFor("data")}</p>}
        {value.data.length > 0 && (
          <div className="template-data-rows">
            {value.data.map((row, index) => (
              <div className="template-data-row" key={row.id}>
                <input
                  className="input input-sm input-mono"
                  aria-label={`Key of data entry ${index + 1}`}
                  placeholder="key"
                  spellCheck={false}
                  readOnly={readOnly}
                  value={row.key}
                  onChange={(event) => setRow(row.id, { key: event.target.value })}
                />
                <input
                  className="input input-sm"
                  aria-label={`Value of data entry ${index + 1}`}
                  // Problems name a data entry's Liquid as "data.<key>".
                  data-field={fieldAddress(locale, "push", `data.${row.key.trim()}`)}
                  placeholder="value"
                  readOnly={readOnly}
                  value={row.value}
                  onChange={(event) => setRow(row.id, { value: event.target.value })}
                />
                {!readOnly && (
                  <Button size="sm" variant="ghost" onClick={() => set("data", value.data.filter((other) => other.id !== row.id))}>
                    Remove
                    <span className="visually-hidden"> data entry {index + 1}</span>
                  </Button>
                )}
              </div>
            ))}
          </div>
        )}
        {!readOnly && (
          <div>
            <Button size="sm" onClick={() => set("data", [...value.data, { id: newRowId(), key: "", value: "" }])}>
              Add data entry
            </Button>
          </div>
        )}
      </fieldset>
    </div>
  );
}
