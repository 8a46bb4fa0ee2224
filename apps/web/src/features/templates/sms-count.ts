import { smsSegments } from "@herald/core/browser";

/** "GSM-7 · 2 segments · 187 characters": what a carrier will bill for this text. */
export function describeSmsCount(text: string): string {
  const { encoding, segments, units } = smsSegments(text);
  return `${encoding} · ${segments === 1 ? "1 segment" : `${segments} segments`} · ${units === 1 ? "1 character" : `${units} characters`}`;
}
