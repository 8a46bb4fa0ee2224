import type { Category } from "../../lib/api-types.ts";
import { channels, type Channel } from "../../lib/channels.ts";

/** The category form's state: text as typed, so a half-written number or alias list is kept. */
export type CategoryDraft = {
  key: string;
  label: string;
  mandatory: boolean;
  defaults: Record<Channel, boolean>;
  aliases: string;
  trackOpens: boolean;
  trackClicks: boolean;
  capped: boolean;
  capMax: string;
  capWindowMinutes: string;
  capAction: "defer" | "skip";
};

export const blankCategory: CategoryDraft = {
  key: "",
  label: "",
  mandatory: false,
  defaults: { email: true, sms: true, push: true },
  aliases: "",
  trackOpens: false,
  trackClicks: false,
  capped: false,
  capMax: "3",
  capWindowMinutes: "1440",
  capAction: "defer",
};

export function draftFromCategory(category: Category): CategoryDraft {
  const cap = category.frequencyCap;
  return {
    key: category.key,
    label: category.label,
    mandatory: category.mandatory,
    defaults: { ...category.defaults },
    aliases: category.aliases.join(", "),
    trackOpens: category.tracking.opens,
    trackClicks: category.tracking.clicks,
    capped: cap !== null,
    capMax: cap ? String(cap.max) : blankCategory.capMax,
    capWindowMinutes: cap ? String(cap.windowSeconds / 60) : blankCategory.capWindowMinutes,
    capAction: cap?.action ?? blankCategory.capAction,
  };
}

/** What `categories.upsert` is sent; the server validates every field and names the bad ones. */
export function inputFromDraft(draft: CategoryDraft) {
  return {
    key: draft.key.trim(),
    label: draft.label,
    mandatory: draft.mandatory,
    defaults: Object.fromEntries(channels.map((channel) => [channel, draft.defaults[channel]])) as Record<Channel, boolean>,
    aliases: draft.aliases
      .split(",")
      .map((alias) => alias.trim())
      .filter(Boolean),
    tracking: { opens: draft.trackOpens, clicks: draft.trackClicks },
    // A number field left empty or half-typed is sent as NaN, which the server refuses by name.
    frequencyCap: draft.capped
      ? { max: Number(draft.capMax.trim() || Number.NaN), windowSeconds: Math.round(Number(draft.capWindowMinutes.trim() || Number.NaN) * 60), action: draft.capAction }
      : null,
  };
}

/** Whether two drafts would save the same category (the unsaved-changes prompt compares them). */
export function sameDraft(a: CategoryDraft, b: CategoryDraft): boolean {
  return JSON.stringify(inputFromDraft(a)) === JSON.stringify(inputFromDraft(b));
}
