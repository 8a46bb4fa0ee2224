import { channels } from "../../lib/channels.ts";
import { fieldAddress, variableAddress } from "./field-address.ts";
import type { VariableRow } from "./template-draft.ts";
import type { TemplateProblem } from "./template-types.ts";

/**
 * A problem as the editor lists it: one the server found in the body, or a field the server
 * refused to take at all. `address` is the `data-field` of the input it is about, when known.
 */
export type ShownProblem = {
  code: TemplateProblem["code"] | "refused";
  message: string;
  locale?: string | undefined;
  channel?: string | undefined;
  field?: string | undefined;
  variable?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
  address?: string | undefined;
};

/** The server's problems, each pointed at its input. */
export function shownProblems(problems: TemplateProblem[], variables: VariableRow[]): ShownProblem[] {
  return problems.map((problem) => ({ ...problem, address: addressOf(problem, variables) }));
}

/**
 * A refusal's field errors ("body.content.en.email.html: must not be empty"), which tRPC sends
 * as `data.fields`, as problems; null when the error carries none.
 */
export function refusalProblems(error: unknown): ShownProblem[] | null {
  const fields = readFields(error);
  if (!fields) return null;
  return fields.map(({ path, message }) => {
    const parts = path.split(".");
    if (parts[0] === "body") parts.shift();
    const [area, first, second, third] = parts;
    if (area === "content" && first) {
      const channel = channels.find((candidate) => candidate === second);
      const field = channel ? third : undefined;
      return {
        code: "refused",
        message: capitalise(message),
        locale: first,
        channel,
        field,
        address: channel && field ? fieldAddress(first, channel, field) : undefined,
      };
    }
    if (area === "variables" && first !== undefined && /^\d+$/.test(first)) {
      return { code: "refused", message: capitalise(message), address: variableAddress(Number(first), second ?? "name") };
    }
    return { code: "refused", message: capitalise(path ? `${path}: ${message}` : message) };
  });
}

function addressOf(problem: TemplateProblem, variables: VariableRow[]): string | undefined {
  const channel = channels.find((candidate) => candidate === problem.channel);
  if (problem.locale && channel && problem.field) return fieldAddress(problem.locale, channel, problem.field);
  if (problem.variable) {
    const index = variables.findIndex((row) => row.name.trim() === problem.variable);
    if (index >= 0) return variableAddress(index, problem.code === "bad_example" ? "example" : "name");
  }
  return undefined;
}

function readFields(error: unknown): Array<{ path: string; message: string }> | null {
  if (typeof error !== "object" || error === null || !("data" in error)) return null;
  const data: unknown = error.data;
  if (typeof data !== "object" || data === null || !("fields" in data) || !Array.isArray(data.fields)) return null;
  const fields = data.fields.filter(
    (field): field is { path: string; message: string } =>
      typeof field === "object" && field !== null && typeof field.path === "string" && typeof field.message === "string",
  );
  return fields.length > 0 ? fields : null;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
