import { SelectField, TextField, Field } from "../../components/ui/field.tsx";
import { Button } from "../../components/ui/button.tsx";
import type { Category } from "../../lib/api-types.ts";
import { channelLabel, channels, type Channel } from "../../lib/channels.ts";
import { contentFields, type StepDraft } from "./type-draft.ts";

/** A published template the picker offers: only those with content for the step's channel. */
export type TemplateChoice = { key: string; name: string; channels: string[]; currentVersion: number };

const fieldLabels = { title: "Title", subject: "Subject", body: "Body", html: "HTML" } as const;

type StepEditorProps = {
  index: number;
  step: StepDraft;
  /** Channels other steps already use: one step per channel. */
  taken: Channel[];
  categories: Category[];
  templates: TemplateChoice[];
  /** The server's words for this step's fields, keyed by the path under the step (`content.subject`). */
  errors: Map<string, string>;
  onChange: (step: StepDraft) => void;
  onRemove: (() => void) | null;
};

/** One channel step: the channel, its category and lane, and a published template or inline content. */
export function StepEditor({ index, step, taken, categories, templates, errors, onChange, onRemove }: StepEditorProps) {
  const change = (patch: Partial<StepDraft>) => onChange({ ...step, ...patch });
  const offered = templates.filter((template) => template.channels.includes(step.channel));
  const stepName = `Step ${index + 1}: ${channelLabel(step.channel)}`;

  return (
    <fieldset className="type-step" aria-label={stepName}>
      <legend className="type-step-title">{stepName}</legend>
      <div className="type-step-grid">
        <SelectField label="Channel" name={`channel-${index}`} value={step.channel} onChange={(event) => change({ channel: event.target.value as Channel, template: "" })} error={errors.get("channel")}>
          {channels.map((channel) => (
            <option key={channel} value={channel} disabled={taken.includes(channel)}>
              {channelLabel(channel)}
            </option>
          ))}
        </SelectField>
        <SelectField label="Category" name={`category-${index}`} value={step.category} onChange={(event) => change({ category: event.target.value })} error={errors.get("category")}>
          {!categories.some((category) => category.key === step.category) && <option value={step.category}>{step.category || "Choose a category"}</option>}
          {categories.map((category) => (
            <option key={category.key} value={category.key}>
              {category.label} ({category.key})
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Lane"
          name={`lane-${index}`}
          value={step.lane}
          onChange={(event) => change({ lane: event.target.value === "critical" ? "critical" : "bulk" })}
          hint={step.lane === "critical" ? "Never waits behind bulk work; ignores quiet hours. For OTPs and receipts." : "Ordinary sends."}
          error={errors.get("lane")}
        >
          <option value="bulk">Bulk</option>
          <option value="critical">Critical</option>
        </SelectField>
      </div>
      <Field label="Content" hint={null}>
        {(control) => (
          <div className="type-step-source" role="radiogroup" aria-describedby={control["aria-describedby"]}>
            <label className="checkbox">
              <input type="radio" name={`source-${index}`} id={control.id} checked={step.source === "template"} onChange={() => change({ source: "template" })} />
              A published template
            </label>
            <label className="checkbox">
              <input type="radio" name={`source-${index}`} checked={step.source === "content"} onChange={() => change({ source: "content" })} />
              Inline content
            </label>
          </div>
        )}
      </Field>
      {step.source === "template" ? (
        <SelectField
          label="Template"
          name={`template-${index}`}
          value={step.template}
          onChange={(event) => change({ template: event.target.value })}
          hint={offered.length === 0 ? `No published template has ${channelLabel(step.channel)} content yet: publish one under Templates, or write inline content.` : "Each event pins the template's current version when it arrives."}
          error={errors.get("template")}
        >
          <option value="">Choose a template</option>
          {step.template && !offered.some((template) => template.key === step.template) && <option value={step.template}>{step.template}</option>}
          {offered.map((template) => (
            <option key={template.key} value={template.key}>
              {template.name} ({template.key}, v{template.currentVersion})
            </option>
          ))}
        </SelectField>
      ) : (
        contentFields[step.channel].map((field) =>
          field === "body" || field === "html" ? (
            <Field key={field} label={fieldLabels[field]} error={errors.get(`content.${field}`)} hint={field === "body" ? "Placeholders: {{ user.<field> }} and {{ data.<path> }}." : "Optional."}>
              {(control) => <textarea className="input textarea" name={`${field}-${index}`} rows={field === "html" ? 4 : 3} value={step[field]} onChange={(event) => change({ [field]: event.target.value })} {...control} />}
            </Field>
          ) : (
            <TextField key={field} label={fieldLabels[field]} name={`${field}-${index}`} value={step[field]} onChange={(event) => change({ [field]: event.target.value })} error={errors.get(`content.${field}`)} />
          ),
        )
      )}
      {errors.get("content") && <p className="field-error">{errors.get("content")}</p>}
      {onRemove && (
        <div>
          <Button size="sm" variant="ghost" onClick={onRemove}>
            Remove {channelLabel(step.channel)} step
          </Button>
        </div>
      )}
    </fieldset>
  );
}
