import { CHANNELS, type Channel } from "../channels/channels.ts";
import type { RenderScope } from "../content/inline-content.ts";
import { contentFields } from "./content-fields.ts";
import { liquidVariables, parseLiquid } from "./liquid.ts";
import { resolveLocale } from "./locales.ts";
import { renderTemplate, type TemplateProblem } from "./render-template.ts";
import type { TemplateBody, TemplateMeta } from "./template-content.ts";
import type { TemplateVariable, VariableType } from "./template-variables.ts";

/** User fields every render has, declared or not. */
const BUILT_IN_USER_FIELDS: Readonly<Record<string, string>> = {
  "user.id": "user_123",
  "user.email": "ada@example.com",
  "user.phone": "+14155550123",
  "user.locale": "en",
};
/** What a message cannot go out without; a draft may leave them empty, a published version may not. */
const REQUIRED_FIELDS = new Set(["push.title", "push.body", "email.subject", "email.html", "sms.body"]);
// Properties Liquid gives every list and string: {{ data.items.size }} reads data.items.
const LIQUID_PROPERTIES = new Set(["size", "first", "last"]);

function typeExample(type: VariableType, name: string): unknown {
  switch (type) {
    case "string":
      return name.slice(name.lastIndexOf(".") + 1).replaceAll("_", " ");
    case "number":
      return 42;
    case "boolean":
      return true;
    case "date":
      return "2026-01-15T09:30:00Z";
    case "url":
      return "https://example.com/";
    case "list":
      return [];
    case "object":
      return {};
  }
}

function setPath(scope: RenderScope, path: string, value: unknown): void {
  const [root, ...keys] = path.split(".");
  const last = keys.pop();
  if (last === undefined) return;
  let target: Record<string, unknown> = root === "user" ? scope.user : scope.data;
  for (const key of keys) {
    const next = target[key];
    if (typeof next !== "object" || next === null || Array.isArray(next)) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  target[last] = value;
}

/**
 * A scope that satisfies a variable schema, for previews and the publish check: each variable's
 * example (or a plausible value of its type) at its path, parents before children, and the
 * built-in user fields.
 */
export function exampleScope(variables: readonly TemplateVariable[]): RenderScope {
  const scope: RenderScope = { user: {}, data: {} };
  for (const [path, value] of Object.entries(BUILT_IN_USER_FIELDS)) setPath(scope, path, value);
  const parentsFirst = [...variables].sort((a, b) => a.name.split(".").length - b.name.split(".").length);
  for (const variable of parentsFirst) {
    // structuredClone: a child's example must not write into the parent example's object.
    setPath(scope, variable.name, structuredClone(variable.example ?? typeExample(variable.type, variable.name)));
  }
  return scope;
}

function isCovered(path: string, declared: ReadonlyMap<string, TemplateVariable>): boolean {
  if (Object.hasOwn(BUILT_IN_USER_FIELDS, path) || declared.has(path)) return true;
  for (const [name, variable] of declared) {
    if ((variable.type === "object" || variable.type === "list") && path.startsWith(`${name}.`)) return true;
  }
  const dot = path.lastIndexOf(".");
  return dot > 0 && LIQUID_PROPERTIES.has(path.slice(dot + 1)) && isCovered(path.slice(0, dot), declared);
}

/**
 * Everything that stops a template version from being published, in the order an author fixes
 * them; empty when it may be published. Each locale and channel is also rendered with
 * `exampleScope`, so a template that cannot render its own examples is never published.
 */
export function checkTemplate(input: { meta: Pick<TemplateMeta, "channels" | "defaultLocale">; body: TemplateBody }): TemplateProblem[] {
  const { meta, body } = input;
  const problems: TemplateProblem[] = [];
  const declared = new Map(body.variables.map((variable) => [variable.name, variable]));
  const unrenderable = new Set<string>();

  for (const [locale, content] of Object.entries(body.content)) {
    for (const { channel, field, source, mode } of contentFields(content)) {
      const where = { locale, channel, field };
      if (REQUIRED_FIELDS.has(`${channel}.${field}`) && source.trim() === "") {
        unrenderable.add(`${locale}:${channel}`);
        problems.push({ code: "missing_content", ...where, message: `${channel} ${field} (${locale}) is empty` });
        continue;
      }
      const parsed = parseLiquid(source, mode);
      if (!parsed.ok) {
        unrenderable.add(`${locale}:${channel}`);
        problems.push({ code: "syntax", ...where, line: parsed.line, column: parsed.column, message: `${channel} ${field} (${locale}), line ${parsed.line}, column ${parsed.column}: ${parsed.message}` });
        continue;
      }
      for (const variable of liquidVariables(source)) {
        if (!isCovered(variable, declared)) {
          problems.push({ code: "unknown_variable", ...where, variable, message: `${channel} ${field} (${locale}) uses ${variable}, which is not declared: add it to the variables` });
        }
      }
    }
  }

  const supported = new Set<Channel>(meta.channels);
  for (const channel of CHANNELS) {
    const locales = Object.keys(body.content).filter((locale) => body.content[locale]?.[channel] !== undefined);
    if (supported.has(channel) && resolveLocale(null, locales, meta.defaultLocale) === null) {
      problems.push({ code: "missing_content", channel, locale: meta.defaultLocale, message: `the template sends ${channel} but has no ${channel} content in its default locale, ${meta.defaultLocale}` });
    }
    if (!supported.has(channel)) {
      for (const locale of locales) {
        problems.push({ code: "channel_not_supported", channel, locale, message: `${locale} has ${channel} content, but the template does not send ${channel}: remove it or add the channel` });
      }
    }
  }

  for (const variable of body.variables) {
    if (variable.required && variable.example === undefined) {
      problems.push({ code: "bad_example", variable: variable.name, message: `required variable ${variable.name} needs an example, so previews and the publish check can render` });
    }
  }

  const scope = exampleScope(body.variables);
  const seen = new Set<string>();
  for (const [locale, content] of Object.entries(body.content)) {
    for (const channel of CHANNELS) {
      if (content[channel] === undefined || !supported.has(channel) || unrenderable.has(`${locale}:${channel}`)) continue;
      const result = renderTemplate({ body, defaultLocale: meta.defaultLocale, channel, locale, scope });
      // A missing variable fails every locale alike: report it once.
      if (!result.ok && !seen.has(result.problem.message)) {
        seen.add(result.problem.message);
        problems.push(result.problem);
      }
    }
  }
  return problems;
}
