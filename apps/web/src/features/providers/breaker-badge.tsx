import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import type { Provider } from "./provider-types.ts";

type Breaker = Provider["breaker"];

const breakers: Record<Breaker, { tone: BadgeTone; label: string; meaning: string }> = {
  closed: { tone: "success", label: "Healthy", meaning: "The circuit is closed: sends go through." },
  open: {
    tone: "danger",
    label: "Circuit open",
    meaning: "Herald stopped sending through it after repeated failures; the secondary takes over meanwhile.",
  },
  half_open: {
    tone: "warning",
    label: "Recovering",
    meaning: "The circuit is half open: Herald lets a few sends through to see whether it recovered.",
  },
};

/** A provider's circuit breaker; hovering it says what the state means for sends. */
export function BreakerBadge({ breaker }: { breaker: Breaker }) {
  const { tone, label, meaning } = breakers[breaker];
  return (
    <Badge tone={tone} title={meaning}>
      {label}
    </Badge>
  );
}
