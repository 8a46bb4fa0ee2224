import { canonicalLocale } from "@herald/core/browser";
import { useId, useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { CategorySelect } from "../../components/pickers/category-select.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { channelLabel, channels } from "../../lib/channels.ts";
import { getErrorMessage, hasErrorCode } from "../../lib/trpc-error.ts";
import type { TemplateChannel } from "./template-types.ts";

/** A template's settings as the create and update forms edit them. */
export type TemplateSettings = {
  key: string;
  name: string;
  channels: TemplateChannel[];
  defaultCategory: string | null;
  defaultLocale: string;
};

const fields = ["key", "name", "channels", "defaultCategory", "defaultLocale"] as const;
type Errors = Partial<Record<(typeof fields)[number], string>>;

// The same shape core's TemplateKeySchema accepts, checked early for a friendlier message.
const keyPattern = /^[a-z][a-z0-9_.-]{0,127}$/;

/** Create and edit share it; the key is only asked for on create, since notification types refer to it. */
export function TemplateSettingsForm({
  initial,
  isNew,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  initial: TemplateSettings;
  isNew: boolean;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (settings: TemplateSettings) => void;
  onCancel: () => void;
}) {
  const [key, setKey] = useState(initial.key);
  const [name, setName] = useState(initial.name);
  const [chosen, setChosen] = useState<ReadonlySet<TemplateChannel>>(new Set(initial.channels));
  const [category, setCategory] = useState(initial.defaultCategory ?? "");
  const [locale, setLocale] = useState(initial.defaultLocale);
  const [errors, setErrors] = useState<Errors>({});
  const [refusal, setRefusal] = useState<{ error: unknown; message: string | null }>({ error: null, message: null });
  const channelsHintId = useId();

  // A new refusal from the server goes beside the field it names, like the form's own checks.
  if (error !== refusal.error) {
    const read = readRefusal(error);
    setRefusal({ error, message: read.message });
    setErrors((current) => ({ ...current, ...read.errors }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Errors = {};
    if (isNew && !keyPattern.test(key.trim())) {
      found.key = "Start with a lower-case letter, then lower-case letters, digits, “_”, “.” or “-”, e.g. order.shipped.";
    }
    if (!name.trim()) found.name = "Name it as your team would say it, e.g. “Order shipped”.";
    if (chosen.size === 0) found.channels = "Choose at least one channel.";
    const canonical = canonicalLocale(locale);
    if (!canonical) found.defaultLocale = "Enter a known language as a BCP 47 tag, e.g. en, fr or pt-BR.";
    setErrors(found);
    if (Object.keys(found).length > 0 || !canonical) return;
    onSubmit({
      key: key.trim(),
      name: name.trim(),
      // In the order channel pickers list them, whatever order they were ticked in.
      channels: channels.filter((channel) => chosen.has(channel)),
      defaultCategory: category.trim() || null,
      defaultLocale: canonical,
    });
  }

  function toggle(channel: TemplateChannel, on: boolean) {
    const next = new Set(chosen);
    if (on) next.add(channel);
    else next.delete(channel);
    setChosen(next);
    setErrors((current) => ({ ...current, channels: undefined }));
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      {isNew && (
        <TextField
          label="Key"
          name="key"
          autoComplete="off"
          spellCheck={false}
          autoFocus
          placeholder="e.g. order.shipped"
          maxLength={128}
          hint="What notification types and your backend refer to. It cannot be changed later."
          value={key}
          onChange={(event) => {
            setKey(event.target.value);
            setErrors((current) => ({ ...current, key: undefined }));
          }}
          error={errors.key}
        />
      )}
      <TextField
        label="Name"
        name="name"
        autoComplete="off"
        autoFocus={!isNew}
        placeholder="e.g. Order shipped"
        maxLength={200}
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          setErrors((current) => ({ ...current, name: undefined }));
        }}
        error={errors.name}
      />
      <fieldset className="template-fieldset" aria-describedby={channelsHintId} aria-invalid={errors.channels ? true : undefined}>
        <legend className="field-label">Channels</legend>
        <div className="template-checkboxes">
          {channels.map((channel) => (
            <label key={channel} className="checkbox">
              <input
                type="checkbox"
                name="channels"
                value={channel}
                checked={chosen.has(channel)}
                onChange={(event) => toggle(channel, event.target.checked)}
              />
              {channelLabel(channel)}
            </label>
          ))}
        </div>
        {errors.channels ? (
          <p className="field-error" id={channelsHintId}>
            {errors.channels}
          </p>
        ) : (
          <p className="field-hint" id={channelsHintId}>
            The template carries content for each of these.
          </p>
        )}
      </fieldset>
      <div className="template-form-row">
        <CategorySelect
          label="Default category"
          name="default-category"
          noneLabel="None"
          hint="Optional. Suggested when a broadcast uses this template."
          value={category}
          onChange={(key) => {
            setCategory(key);
            setErrors((current) => ({ ...current, defaultCategory: undefined }));
          }}
          error={errors.defaultCategory}
        />
        <TextField
          label="Default locale"
          name="default-locale"
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g. en"
          hint="Used when a user's locale has no copy."
          value={locale}
          onChange={(event) => {
            setLocale(event.target.value);
            setErrors((current) => ({ ...current, defaultLocale: undefined }));
          }}
          error={errors.defaultLocale}
        />
      </div>
      {refusal.message && <Alert tone="error">{refusal.message}</Alert>}
      <div className="dialog-actions">
        <Button onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" pending={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/**
 * The server's refusal split into field errors where it names a field ("defaultCategory: there
 * is no category …", a taken key) and what is left as one message.
 */
function readRefusal(error: unknown): { errors: Errors; message: string | null } {
  if (error == null) return { errors: {}, message: null };
  const message = getErrorMessage(error);
  if (hasErrorCode(error, "CONFLICT")) return { errors: { key: capitalise(message) }, message: null };
  const named = /^(\w+)(?:\.\d+)?: ([^;]+)$/.exec(message);
  const field = fields.find((candidate) => candidate === named?.[1]);
  if (named && field) return { errors: { [field]: capitalise(named[2]!) }, message: null };
  return { errors: {}, message };
}

function capitalise(text: string): string {
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
