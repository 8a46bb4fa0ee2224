// A copy of describeReason from @herald/core (notifications/reason-codes.ts): the API returns
// only the reason code, and the dashboard bundles nothing from the server packages. Keep the two
// in step; a code this copy does not know is shown as the code itself.

const fixed: Record<string, string> = {
  category_disabled: "opted out of this category on this channel",
  quiet_hours: "deferred: quiet hours",
  frequency_capped: "the category's frequency cap was reached",
  credentials_outage: "deferred: the provider refused our credentials",
  channel_unconfigured: "no provider is configured for this channel",
  rate_limited: "deferred: the provider's rate limit was reached",
  breaker_open: "deferred: the provider's circuit breaker is open",
  max_attempts: "gave up after the maximum number of attempts",
  max_age: "gave up: still failing at the maximum age",
  outage_max_age: "gave up: the provider outage outlasted the maximum age",
  invalid_payload: "its payload is invalid and cannot be sent",
  broadcast_canceled: "its broadcast was canceled before it was sent",
  replayed: "replayed by an operator from the dead-letter queue",
  render_failed: "the content could not be rendered",
};

const suppressed: Record<string, string> = {
  hard_bounce: "address suppressed after a hard bounce",
  complaint: "address suppressed after a spam complaint",
  stop: "number suppressed after a STOP reply",
  invalid: "address suppressed as invalid",
  manual: "address suppressed by an operator",
  import: "address suppressed by an imported list",
};

const unreachable: Record<string, string> = {
  device: "no active device",
  email: "no email address",
  phone: "no phone number",
};

/** A reason code in plain words, capitalised as a sentence: "provider_rejected:21211" → "The provider rejected it (code 21211)". */
export function describeReason(code: string): string {
  const text = words(code);
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : code;
}

function words(code: string): string | null {
  const known = fixed[code];
  if (known) return known;
  const colon = code.indexOf(":");
  if (colon < 0) return null;
  const parameter = code.slice(colon + 1);
  switch (code.slice(0, colon)) {
    case "suppressed":
      return suppressed[parameter] ?? null;
    case "unreachable":
      return unreachable[parameter] ?? null;
    case "render_failed":
      return `could not render: ${parameter} is missing`;
    case "provider_rejected":
      return `the provider rejected it (code ${parameter})`;
    default:
      return null;
  }
}
