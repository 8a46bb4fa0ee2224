import { z } from "zod";

export const VARIABLE_TYPES = ["string", "number", "boolean", "date", "url", "list", "object"] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

export const MAX_TEMPLATE_VARIABLES = 100;

const VARIABLE_NAME = /^(data|user)(\.[A-Za-z_][A-Za-z0-9_]{0,63}){1,4}$/;
const ISO_DATE = z.iso.date();
const ISO_DATETIME = z.iso.datetime({ offset: true, local: true });

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === "https:" || protocol === "http:";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function matchesVariableType(type: VariableType, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "url":
      return typeof value === "string" && isHttpUrl(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "date":
      return typeof value === "string" && (ISO_DATE.safeParse(value).success || ISO_DATETIME.safeParse(value).success);
    case "list":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
  }
}

const EXPECTED: Readonly<Record<VariableType, string>> = {
  string: "a string",
  url: "an absolute http(s) URL",
  number: "a finite number",
  boolean: "true or false",
  date: 'an ISO 8601 date or date-time such as "2026-03-01" or "2026-03-01T09:30:00Z"',
  list: "an array",
  object: "an object",
};

/** One variable a template version declares: where it lives in the render scope and what it holds. */
export const TemplateVariableSchema = z
  .strictObject({
    name: z.string().regex(VARIABLE_NAME, {
      error: (issue) =>
        `${JSON.stringify(issue.input)} is not a variable name: start with "data." or "user.", then 1 to 4 names of letters, digits and "_" separated by dots, such as "data.order_id"`,
    }),
    type: z.enum(VARIABLE_TYPES, {
      error: (issue) => `${JSON.stringify(issue.input)} is not a variable type: use ${VARIABLE_TYPES.join(", ")}`,
    }),
    required: z.boolean(),
    example: z.unknown().optional(),
    description: z.string().max(500, "must be at most 500 characters").optional(),
  })
  .superRefine((variable, ctx) => {
    if (variable.example !== undefined && !matchesVariableType(variable.type, variable.example)) {
      ctx.addIssue({ code: "custom", path: ["example"], message: `the example of ${variable.name} must be ${EXPECTED[variable.type]}` });
    }
  });
export type TemplateVariable = z.infer<typeof TemplateVariableSchema>;

/** A version's variable schema: unique names, and only objects or lists have declared children. */
export const TemplateVariablesSchema = z
  .array(TemplateVariableSchema)
  .max(MAX_TEMPLATE_VARIABLES, `must declare at most ${MAX_TEMPLATE_VARIABLES} variables`)
  .superRefine((variables, ctx) => {
    const byName = new Map(variables.map((variable) => [variable.name, variable]));
    variables.forEach((variable, index) => {
      if (variables.findIndex((other) => other.name === variable.name) !== index) {
        ctx.addIssue({ code: "custom", path: [index, "name"], message: `variable ${variable.name} is declared twice` });
        return;
      }
      // Example scopes are built by nesting the paths, so only an object can hold declared
      // children; a list already covers every path inside its items.
      const segments = variable.name.split(".");
      for (let length = 2; length < segments.length; length++) {
        const parent = byName.get(segments.slice(0, length).join("."));
        if (parent !== undefined && parent.type !== "object") {
          ctx.addIssue({
            code: "custom",
            path: [index, "name"],
            message: `${variable.name} is declared inside ${parent.name}, which is a ${parent.type}: only an object can have declared children`,
          });
        }
      }
    });
  });
