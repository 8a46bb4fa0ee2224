import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field, SelectField } from "../../components/ui/field.tsx";
import { channelLabel, type Channel } from "../../lib/channels.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { draftFor, fieldErrorsFromServer, readDraft, type FieldErrors, type ProviderDraft } from "./provider-draft.ts";
import { getProviderKindSpec, kindsForChannel, parseProviderKind, providerKindLabel, type ProviderField } from "./provider-kinds.ts";
import type { Provider, ProviderRole } from "./provider-types.ts";
import { useInvalidateProviders } from "./use-invalidate-providers.ts";

type ProviderFormProps = {
  channel: Channel;
  role: ProviderRole;
  /** The provider stored in this slot, when editing one. */
  existing: Provider | null;
  secretKeyConfigured: boolean;
  onClose: () => void;
};

const keepSecretPlaceholder = "Stored — leave empty to keep";

/** Configures a channel's primary or secondary: a kind, its settings, and its secrets. */
export function ProviderForm({ channel, role, existing, secretKeyConfigured, onClose }: ProviderFormProps) {
  const trpc = useTRPC();
  const invalidateProviders = useInvalidateProviders();
  const save = useMutation(trpc.providers.save.mutationOptions({ onSuccess: invalidateProviders }));
  const kinds = kindsForChannel(channel);
  const [draft, setDraft] = useState<ProviderDraft>(() => draftFor(existing, existing?.kind ?? kinds[0] ?? "webhook"));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const titleId = useId();
  const spec = getProviderKindSpec(draft.kind);
  const canKeepSecrets = existing !== null && existing.kind === draft.kind;
  const subject = `${role} ${channelLabel(channel)} provider`;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setRefusal(null);
    const read = readDraft(draft, canKeepSecrets);
    if (!read.ok) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    save.mutate(
      { channel, role, kind: draft.kind, settings: read.settings, secrets: read.secrets, enabled: draft.isEnabled },
      {
        onSuccess: onClose,
        onError: (error) => {
          const refused = fieldErrorsFromServer(draft, getErrorMessage(error));
          setErrors(refused.errors);
          setRefusal(refused.message ?? "The server refused some values: see the fields marked above.");
        },
      },
    );
  }

  function edit(group: "settings" | "secrets", key: string, value: string) {
    setDraft((current) => ({ ...current, [group]: { ...current[group], [key]: value } }));
    setErrors((current) => {
      const next = { ...current };
      delete next[`${group}.${key}`];
      return next;
    });
  }

  function renderField(group: "settings" | "secrets", field: ProviderField) {
    const isSecret = group === "secrets";
    const name = `${group}.${field.key}`;
    const value = draft[group][field.key] ?? "";
    const placeholder = isSecret && canKeepSecrets ? keepSecretPlaceholder : field.placeholder;
    return (
      <Field key={name} label={field.label} hint={field.hint} error={errors[name]} className={field.input === "json" ? "span-all" : undefined}>
        {(control) =>
          field.input === "json" ? (
            <textarea
              className="input textarea input-mono"
              name={name}
              rows={6}
              spellCheck={false}
              placeholder={placeholder}
              value={value}
              onChange={(event) => edit(group, field.key, event.target.value)}
              {...control}
            />
          ) : (
            <input
              className={isSecret ? "input input-mono" : "input"}
              name={name}
              type={isSecret ? "password" : field.input === "number" ? "number" : field.input === "url" ? "url" : "text"}
              // Keeps the browser from filling in a saved dashboard password as a provider secret.
              autoComplete={isSecret ? "new-password" : "off"}
              spellCheck={false}
              inputMode={field.input === "number" ? "decimal" : undefined}
              step={field.input === "number" ? "any" : undefined}
              placeholder={placeholder}
              value={value}
              onChange={(event) => edit(group, field.key, event.target.value)}
              {...control}
            />
          )
        }
      </Field>
    );
  }

  return (
    <form className="provider-panel" aria-labelledby={titleId} onSubmit={submit} noValidate>
      <div>
        <h3 className="provider-panel-title" id={titleId}>
          {existing ? `Edit the ${subject}` : `Configure the ${subject}`}
        </h3>
        <p className="field-hint">Saved providers are in use within a few seconds, on every server process.</p>
      </div>
      <SelectField
        label="Provider"
        name="kind"
        className="provider-kind"
        // Opening the form from a card's button lands on its first choice.
        autoFocus
        value={draft.kind}
        onChange={(event) => {
          const kind = parseProviderKind(event.target.value);
          if (!kind) return;
          setDraft((current) => ({ ...draftFor(existing, kind), isEnabled: current.isEnabled }));
          setErrors({});
          setRefusal(null);
        }}
      >
        {kinds.map((kind) => (
          <option key={kind} value={kind}>
            {providerKindLabel(kind)}
          </option>
        ))}
      </SelectField>
      <fieldset className="provider-fieldset">
        <legend className="provider-legend">Settings</legend>
        <div className="provider-form-grid">{spec.settings.map((field) => renderField("settings", field))}</div>
      </fieldset>
      <fieldset className="provider-fieldset">
        <legend className="provider-legend">Credentials</legend>
        <p className="field-hint">
          {secretKeyConfigured ? (
            <>
              Encrypted with <code className="code">HERALD_SECRET_KEY</code> before they are stored, and never shown again.
              {canKeepSecrets && " Enter them all to replace them; leave them all empty to keep the stored ones."}
            </>
          ) : (
            <>
              <code className="code">HERALD_SECRET_KEY</code> is not set on the server, so it will refuse to store them.
            </>
          )}
        </p>
        <div className="provider-form-grid">{spec.secrets.map((field) => renderField("secrets", field))}</div>
      </fieldset>
      <div className="checkbox">
        <input
          id={`${titleId}-enabled`}
          type="checkbox"
          name="enabled"
          checked={draft.isEnabled}
          onChange={(event) => setDraft((current) => ({ ...current, isEnabled: event.target.checked }))}
        />
        <label htmlFor={`${titleId}-enabled`}>Enabled</label>
        <span className="field-hint">A disabled provider stays stored but sends nothing.</span>
      </div>
      {refusal && <Alert tone="error">{refusal}</Alert>}
      <div className="provider-panel-actions">
        <Button type="submit" variant="primary" pending={save.isPending}>
          Save
          <span className="visually-hidden"> the {subject}</span>
        </Button>
        <Button onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
