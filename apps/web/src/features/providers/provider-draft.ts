import { getProviderKindSpec, type ProviderField } from "./provider-kinds.ts";
import type { Provider, ProviderKind } from "./provider-types.ts";

/** The provider form's state: every input is text until it is read. */
export type ProviderDraft = {
  kind: ProviderKind;
  isEnabled: boolean;
  settings: Record<string, string>;
  secrets: Record<string, string>;
};

/** Form errors keyed "settings.<key>" or "secrets.<key>", as the inputs are named. */
export type FieldErrors = Record<string, string>;

type ReadDraft =
  | { ok: true; settings: Record<string, unknown>; secrets: Record<string, string> | null }
  | { ok: false; errors: FieldErrors };

/**
 * The draft for editing `provider`, or for a new one of `kind`. Secrets always start empty: the
 * list only has masked values, and a masked value put back into an input would be saved as the secret.
 */
export function draftFor(provider: Provider | null, kind: ProviderKind): ProviderDraft {
  const settings: Record<string, string> = {};
  if (provider && provider.kind === kind) {
    for (const [key, value] of Object.entries(provider.settings)) settings[key] = settingText(value);
  }
  return { kind, isEnabled: provider?.enabled ?? true, settings, secrets: {} };
}

/** How a stored setting reads: lists as "a, b", absent values as "". */
export function settingText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(String).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * The draft as `providers.save` takes it. `canKeepSecrets` when a provider of the same kind is
 * stored: then empty secret inputs keep its secrets (null), and otherwise every secret is needed.
 */
export function readDraft(draft: ProviderDraft, canKeepSecrets: boolean): ReadDraft {
  const spec = getProviderKindSpec(draft.kind);
  const errors: FieldErrors = {};
  const settings: Record<string, unknown> = {};

  for (const field of spec.settings) {
    const text = (draft.settings[field.key] ?? "").trim();
    if (text === "") {
      if (field.isRequired) errors[`settings.${field.key}`] = `${field.label} is required.`;
      continue;
    }
    const read = readSetting(field, text);
    if (read.ok) settings[field.key] = read.value;
    else errors[`settings.${field.key}`] = read.error;
  }
  if (spec.requireOneOf) {
    const [first, second] = spec.requireOneOf.keys;
    if (settings[first] === undefined && settings[second] === undefined && !errors[`settings.${first}`]) {
      errors[`settings.${first}`] = spec.requireOneOf.message;
    }
  }

  const entered = spec.secrets.filter((field) => (draft.secrets[field.key] ?? "").trim() !== "");
  const keepsSecrets = canKeepSecrets && entered.length === 0;
  const secrets: Record<string, string> = {};
  if (!keepsSecrets) {
    for (const field of spec.secrets) {
      const text = (draft.secrets[field.key] ?? "").trim();
      if (text === "") {
        // The server replaces a provider's secrets as a whole, never one field of them.
        errors[`secrets.${field.key}`] =
          entered.length > 0 && canKeepSecrets ? `${field.label} is required too: secrets are replaced together.` : `${field.label} is required.`;
        continue;
      }
      const error = checkText(field, text);
      if (error) errors[`secrets.${field.key}`] = error;
      else secrets[field.key] = text;
    }
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, settings, secrets: keepsSecrets ? null : secrets };
}

function readSetting(field: ProviderField, text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  switch (field.input) {
    case "number": {
      const value = Number(text);
      if (!Number.isFinite(value) || value < 0.1 || value > 100_000) {
        return { ok: false, error: "Enter a number from 0.1 to 100,000, or leave it empty." };
      }
      return { ok: true, value };
    }
    case "list":
      return {
        ok: true,
        value: text
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean),
      };
    case "url":
      if (!URL.canParse(text)) return { ok: false, error: "Enter a full URL, starting with https://." };
      return { ok: true, value: text };
    case "text":
    case "json": {
      const error = checkText(field, text);
      return error ? { ok: false, error } : { ok: true, value: text };
    }
  }
}

function checkText(field: ProviderField, text: string): string | null {
  if (field.input === "json" && !isJson(text)) return "Paste the whole JSON document: this is not valid JSON.";
  if (field.pattern && !field.pattern.regex.test(text)) return field.pattern.message;
  if (field.minLength && text.length < field.minLength) return `${field.label} is at least ${field.minLength} characters long.`;
  return null;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Splits the server's refusal ("settings: region: must be …; from: …", "settings.url: …") into
 * messages beside the fields it names. When any part names no field, the whole message is kept
 * together in `message` rather than shown in pieces.
 */
export function fieldErrorsFromServer(draft: ProviderDraft, message: string): { errors: FieldErrors; message: string | null } {
  const spec = getProviderKindSpec(draft.kind);
  const known = new Set([...spec.settings.map((f) => `settings.${f.key}`), ...spec.secrets.map((f) => `secrets.${f.key}`)]);
  const grouped = /^(settings|secrets): (.+)$/s.exec(message);
  const parts = grouped
    ? grouped[2]!.split("; ").map((part) => {
        const issue = /^([A-Za-z]+)(?:\.\d+)?: (.+)$/s.exec(part);
        return issue ? { key: `${grouped[1]}.${issue[1]}`, text: issue[2]! } : null;
      })
    : [/^((?:settings|secrets)\.[A-Za-z]+): (.+)$/s.exec(message)].map((issue) => (issue ? { key: issue[1]!, text: issue[2]! } : null));
  if (parts.some((part) => part === null || !known.has(part.key))) return { errors: {}, message };
  const errors: FieldErrors = {};
  for (const part of parts) if (part) errors[part.key] = capitalise(part.text);
  return { errors, message: null };
}

function capitalise(text: string): string {
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
