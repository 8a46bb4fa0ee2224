import type { NotificationType } from "../../lib/api-types.ts";
import { channels, type Channel } from "../../lib/channels.ts";

/** One channel step as the editor holds it: text as typed, both sources kept while the member switches. */
export type StepDraft = {
  channel: Channel;
  category: string;
  lane: "bulk" | "critical";
  source: "template" | "content";
  template: string;
  title: string;
  subject: string;
  body: string;
  html: string;
};

export type TypeDraft = { type: string; steps: StepDraft[] };

/** The inline fields each channel has, in the order the editor shows them. */
export const contentFields: Record<Channel, Array<"title" | "subject" | "body" | "html">> = {
  email: ["subject", "body", "html"],
  sms: ["body"],
  push: ["title", "body"],
};

export function blankStep(channel: Channel, category: string): StepDraft {
  return { channel, category, lane: "bulk", source: "template", template: "", title: "", subject: "", body: "", html: "" };
}

/** The first channel no step uses yet, or null when every channel has one. */
export function nextChannel(steps: readonly StepDraft[]): Channel | null {
  return channels.find((channel) => !steps.some((step) => step.channel === channel)) ?? null;
}

export function draftFromType(type: NotificationType): TypeDraft {
  return {
    type: type.type,
    steps: type.channels.map((step) => {
      const content = (step.content ?? {}) as Partial<Record<"title" | "subject" | "body" | "html", string>>;
      return {
        channel: step.channel,
        category: step.category,
        lane: step.lane ?? "bulk",
        source: step.template !== undefined ? "template" : "content",
        template: step.template ?? "",
        title: content.title ?? "",
        subject: content.subject ?? "",
        body: content.body ?? "",
        html: content.html ?? "",
      };
    }),
  };
}

/** What `notificationTypes.upsert` is sent; an empty optional field is left out, a required one sent empty for the server to name. */
export function inputFromDraft(draft: TypeDraft) {
  return {
    type: draft.type.trim(),
    channels: draft.steps.map((step) => {
      const base = { channel: step.channel, category: step.category, lane: step.lane };
      if (step.source === "template") return { ...base, template: step.template };
      const content: { body: string; title?: string; subject?: string; html?: string } = { body: step.body };
      for (const field of contentFields[step.channel]) {
        if (field !== "body" && step[field] !== "") content[field] = step[field];
      }
      return { ...base, content };
    }),
  };
}

export function sameDraft(a: TypeDraft, b: TypeDraft): boolean {
  return JSON.stringify(inputFromDraft(a)) === JSON.stringify(inputFromDraft(b));
}
