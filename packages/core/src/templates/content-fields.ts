import type { Channel } from "../channels/channels.ts";
import type { LiquidMode } from "./liquid.ts";
import type { LocaleContent } from "./template-content.ts";

/** One Liquid source of a locale's content, named the way problems and diffs name it. */
export interface ContentField {
  channel: Channel;
  /** "subject", "html", "data.url"… */
  field: string;
  source: string;
  mode: LiquidMode;
}

/** Every Liquid source of a locale's content, in a stable order: push, email, sms; data keys sorted. */
export function contentFields(content: LocaleContent): ContentField[] {
  const fields: ContentField[] = [];
  const add = (channel: Channel, field: string, source: string | undefined, mode: LiquidMode = "text") => {
    if (source !== undefined) fields.push({ channel, field, source, mode });
  };
  if (content.push) {
    add("push", "title", content.push.title);
    add("push", "body", content.push.body);
    add("push", "imageUrl", content.push.imageUrl);
    add("push", "deepLink", content.push.deepLink);
    for (const key of Object.keys(content.push.data ?? {}).sort()) add("push", `data.${key}`, content.push.data?.[key]);
  }
  if (content.email) {
    add("email", "subject", content.email.subject);
    add("email", "preheader", content.email.preheader);
    add("email", "html", content.email.html, "html");
    add("email", "text", content.email.text);
  }
  if (content.sms) add("sms", "body", content.sms.body);
  return fields;
}
