// The dispatch state only matters while a notification is pending; once its status settles it is
// always "done". Mirrors DISPATCH_STATE_MEANINGS in @herald/core.
const labels: Record<string, { label: string; meaning: string }> = {
  queued: { label: "Queued", meaning: "Waiting for a worker to pick it up." },
  in_flight: { label: "Sending", meaning: "A worker is calling the provider." },
  retry_wait: { label: "Waiting to retry", meaning: "An attempt failed transiently; the next one is scheduled." },
  deferred: {
    label: "Deferred",
    meaning: "Held back by quiet hours, a frequency cap, a rate limit or a provider outage. Not an attempt.",
  },
  paused: { label: "Paused", meaning: "Held because an operator paused its broadcast or channel." },
  done: { label: "Done", meaning: "Nothing left to do; the status is settled." },
};

export function dispatchStateLabel(state: string): string {
  return labels[state]?.label ?? state;
}

export function dispatchStateMeaning(state: string): string | null {
  return labels[state]?.meaning ?? null;
}
