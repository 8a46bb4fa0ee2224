import type { TemplateChannel } from "./template-types.ts";

/**
 * Where a problem points, as the editor's inputs carry it in `data-field`: "en email subject",
 * "variables 2 example". Lets a problem in the list take the member to the input it is about.
 */
export function fieldAddress(locale: string, channel: TemplateChannel, field: string): string {
  return `${locale} ${channel} ${field}`;
}

export function variableAddress(index: number, field: string): string {
  return `variables ${index} ${field}`;
}
