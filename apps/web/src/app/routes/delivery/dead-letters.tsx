import { useMember } from "../../../features/auth/use-session.ts";
import { DeadLetters } from "../../../features/dead-letters/dead-letters.tsx";

export function DeadLettersRoute() {
  const { can } = useMember();
  return <DeadLetters canReplay={can("deliveries.replay")} />;
}
