import { describeReason as describeReasonCode, isReasonCode } from "@herald/core/browser";

/** A reason code in plain words, capitalised for a table cell; a code core does not know is shown as it is. */
export function describeReason(code: string): string {
  if (!isReasonCode(code)) return code;
  const text = describeReasonCode(code);
  return text.charAt(0).toUpperCase() + text.slice(1);
}
