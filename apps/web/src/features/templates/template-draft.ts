import type { TemplateBody, TemplateChannel, TemplateVariable, VariableType } from "./template-types.ts";

type LocaleContent = TemplateBody["content"][string];

/** A push data entry as a row, so a half-typed or duplicate key survives until it is saved. */
export type DataRow = { id: string; key: string; value: string };

/** The editor's form state: every input is text, and variables and data entries are rows. */
export type TemplateDraft = {
  variables: VariableRow[];
  content: Record<string, LocaleDraft>;
};

export type VariableRow = {
  id: string;
  name: string;
  type: VariableType;
  required: boolean;
  /** As typed: read according to `type` when the body is built. */
  example: string;
  description: string;
};

export type PushDraft = { title: string; body: string; imageUrl: string; deepLink: string; data: DataRow[] };
export type EmailDraft = { subject: string; preheader: string; html: string; text: string };
export type SmsDraft = { body: string };
export type LocaleDraft = { push: PushDraft; email: EmailDraft; sms: SmsDraft };

let nextRowId = 0;
/** Row keys for React; never sent to the server. */
export function newRowId(): string {
  nextRowId += 1;
  return `row-${nextRowId}`;
}

export function emptyLocaleDraft(): LocaleDraft {
  return {
    push: { title: "", body: "", imageUrl: "", deepLink: "", data: [] },
    email: { subject: "", preheader: "", html: "", text: "" },
    sms: { body: "" },
  };
}

export function newVariableRow(): VariableRow {
  return { id: newRowId(), name: "", type: "string", required: true, example: "", description: "" };
}

/** The editor state for a stored body. */
export function draftFromBody(body: TemplateBody): TemplateDraft {
  const content: Record<string, LocaleDraft> = {};
  for (const [locale, channels] of Object.entries(body.content)) {
    const draft = emptyLocaleDraft();
    if (channels.push) {
      const { title, body: text, imageUrl, deepLink, data } = channels.push;
      draft.push = {
        title,
        body: text,
        imageUrl: imageUrl ?? "",
        deepLink: deepLink ?? "",
        data: Object.entries(data ?? {}).map(([key, value]) => ({ id: newRowId(), key, value })),
      };
    }
    if (channels.email) {
      const { subject, preheader, html, text } = channels.email;
      draft.email = { subject, preheader: preheader ?? "", html, text: text ?? "" };
    }
    if (channels.sms) draft.sms = { body: channels.sms.body };
    content[locale] = draft;
  }
  return {
    variables: body.variables.map((variable) => ({
      id: newRowId(),
      name: variable.name,
      type: variable.type,
      required: variable.required,
      example: exampleText(variable.example),
      description: variable.description ?? "",
    })),
    content,
  };
}

/**
 * The body `saveDraft` and `preview` take. A channel left entirely empty is left out, so the
 * server reports it as missing rather than rendering blank copy; a locale with nothing in it
 * is kept, so a locale just added survives a save.
 */
export function bodyFromDraft(draft: TemplateDraft): TemplateBody {
  const content: TemplateBody["content"] = {};
  for (const [locale, channels] of Object.entries(draft.content)) {
    const localeContent: LocaleContent = {};
    const { push, email, sms } = channels;
    const data = push.data.filter((row) => row.key.trim() !== "" || row.value !== "");
    if (push.title || push.body || push.imageUrl || push.deepLink || data.length > 0) {
      localeContent.push = {
        title: push.title,
        body: push.body,
        ...(push.imageUrl.trim() && { imageUrl: push.imageUrl.trim() }),
        ...(push.deepLink.trim() && { deepLink: push.deepLink.trim() }),
        ...(data.length > 0 && { data: Object.fromEntries(data.map((row) => [row.key.trim(), row.value])) }),
      };
    }
    if (email.subject || email.preheader || email.html || email.text) {
      localeContent.email = {
        subject: email.subject,
        html: email.html,
        ...(email.preheader && { preheader: email.preheader }),
        ...(email.text && { text: email.text }),
      };
    }
    if (sms.body) localeContent.sms = { body: sms.body };
    content[locale] = localeContent;
  }
  return {
    variables: draft.variables
      .filter((row) => row.name.trim() !== "")
      .map((row): TemplateVariable => {
        const example = readExample(row.type, row.example);
        return {
          name: row.name.trim(),
          type: row.type,
          required: row.required,
          ...(example !== undefined && { example }),
          ...(row.description.trim() && { description: row.description.trim() }),
        };
      }),
    content,
  };
}

/** Locales in the order the tabs show them: the default first, then as they were added. */
export function draftLocales(draft: TemplateDraft, defaultLocale: string): string[] {
  const others = Object.keys(draft.content).filter((locale) => locale !== defaultLocale);
  return [defaultLocale, ...others];
}

/** Whether a channel has anything written in a locale: an empty tab is marked as such. */
export function hasChannelContent(locale: LocaleDraft | undefined, channel: TemplateChannel): boolean {
  if (!locale) return false;
  switch (channel) {
    case "push":
      return Boolean(locale.push.title || locale.push.body);
    case "email":
      return Boolean(locale.email.subject || locale.email.html);
    case "sms":
      return Boolean(locale.sms.body);
  }
}

function exampleText(example: unknown): string {
  if (example === undefined || example === null) return "";
  return typeof example === "string" ? example : JSON.stringify(example);
}

/**
 * An example as its type reads it. Text that does not read (a number field holding "abc") is
 * sent as typed: the server's bad_example problem then says what is wrong, beside the others.
 */
function readExample(type: VariableType, text: string): unknown {
  if (text.trim() === "") return undefined;
  switch (type) {
    case "number": {
      const value = Number(text);
      return Number.isFinite(value) ? value : text;
    }
    case "boolean":
      return text.trim() === "true" ? true : text.trim() === "false" ? false : text;
    case "list":
    case "object":
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    case "string":
    case "date":
    case "url":
      return text;
  }
}
