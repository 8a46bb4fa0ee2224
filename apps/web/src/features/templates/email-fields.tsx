import { TextField } from "../../components/ui/field.tsx";
import { fieldAddress } from "./field-address.ts";
import type { EmailDraft } from "./template-draft.ts";
import { TextAreaField } from "./text-area-field.tsx";

type FieldsProps = {
  locale: string;
  value: EmailDraft;
  readOnly: boolean;
  errorFor: (field: string) => string | undefined;
  onChange: (value: EmailDraft) => void;
};

/** An email's subject, preheader, HTML and optional plain-text bodies. */
export function EmailFields({ locale, value, readOnly, errorFor, onChange }: FieldsProps) {
  const set = (field: keyof EmailDraft, next: string) => onChange({ ...value, [field]: next });
  return (
    <div className="form">
      <TextField
        label="Subject"
        data-field={fieldAddress(locale, "email", "subject")}
        readOnly={readOnly}
        value={value.subject}
        onChange={(event) => set("subject", event.target.value)}
        error={errorFor("subject")}
      />
      <TextField
        label="Preheader"
        hint="Optional. The line inboxes show after the subject."
        data-field={fieldAddress(locale, "email", "preheader")}
        readOnly={readOnly}
        value={value.preheader}
        onChange={(event) => set("preheader", event.target.value)}
        error={errorFor("preheader")}
      />
      <TextAreaField
        label="HTML body"
        isCode
        rows={14}
        hint="Sanitised when rendered: scripts, forms and event handlers are removed."
        data-field={fieldAddress(locale, "email", "html")}
        readOnly={readOnly}
        value={value.html}
        onChange={(event) => set("html", event.target.value)}
        error={errorFor("html")}
      />
      <TextAreaField
        label="Text body"
        rows={5}
        hint="Optional. Generated from the HTML when empty."
        data-field={fieldAddress(locale, "email", "text")}
        readOnly={readOnly}
        value={value.text}
        onChange={(event) => set("text", event.target.value)}
        error={errorFor("text")}
      />
    </div>
  );
}
