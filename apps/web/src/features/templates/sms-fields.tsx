import { fieldAddress } from "./field-address.ts";
import { describeSmsCount } from "./sms-count.ts";
import type { SmsDraft } from "./template-draft.ts";
import { TextAreaField } from "./text-area-field.tsx";

type FieldsProps = {
  locale: string;
  value: SmsDraft;
  readOnly: boolean;
  errorFor: (field: string) => string | undefined;
  onChange: (value: SmsDraft) => void;
};

/** An SMS body with its segment count as written; the preview counts the rendered text. */
export function SmsFields({ locale, value, readOnly, errorFor, onChange }: FieldsProps) {
  return (
    <div className="form">
      <TextAreaField
        label="Body"
        rows={6}
        hint="Placeholders count as written here; the preview counts the text a user receives."
        data-field={fieldAddress(locale, "sms", "body")}
        readOnly={readOnly}
        value={value.body}
        onChange={(event) => onChange({ body: event.target.value })}
        error={errorFor("body")}
      />
      <p className="template-sms-count">{describeSmsCount(value.body)}</p>
    </div>
  );
}
