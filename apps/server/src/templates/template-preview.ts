import {
  checkTemplate,
  exampleScope,
  renderTemplate,
  type Channel,
  type RenderScope,
  type TemplateBody,
  type TemplateMeta,
  type TemplateProblem,
  type TemplateRenderResult,
} from "@herald/core";
import { findUser, type Sql } from "@herald/db";
import { AppError } from "../errors.ts";
import { userScope } from "../dispatch/render-message.ts";

/** Whose values a preview or a test send renders with: the declared examples, or a real user's. */
export type PreviewSource = { kind: "examples" } | { kind: "user"; userId: string };

/**
 * The scope a preview renders with. A real user's profile and attributes fill `user`; `data`
 * (the event's payload) still comes from the examples, since no event is at hand.
 */
export async function previewScope(sql: Sql, body: TemplateBody, source: PreviewSource): Promise<RenderScope> {
  const examples = exampleScope(body.variables);
  if (source.kind === "examples") return examples;
  const user = await findUser(sql, source.userId);
  if (!user) throw new AppError("NOT_FOUND", `There is no user "${source.userId}"`);
  return {
    user: userScope({ externalUserId: user.externalId, user }),
    data: examples.data,
  };
}

/** A render of the editor's unsaved state, with every problem publish would report. */
export interface Preview {
  problems: TemplateProblem[];
  result: TemplateRenderResult;
}

export function previewTemplate(
  meta: Pick<TemplateMeta, "channels" | "defaultLocale">,
  body: TemplateBody,
  channel: Channel,
  locale: string,
  scope: RenderScope,
): Preview {
  return {
    problems: checkTemplate({ meta, body }),
    result: renderTemplate({ body, defaultLocale: meta.defaultLocale, channel, locale, scope }),
  };
}
