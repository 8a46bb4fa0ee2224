import "../../../features/broadcasts/broadcasts.css";
import { useParams } from "react-router";
import { useMember } from "../../../features/auth/use-session.ts";
import { BroadcastView } from "../../../features/broadcasts/broadcast-view.tsx";
import { RequireCapability } from "../../require-capability.tsx";

/** /broadcasts/:id: a draft in the composer, a running broadcast's live counters, a finished one's report. */
export function BroadcastDetailRoute() {
  const { id = "" } = useParams();
  const canSend = useMember().can("broadcasts.send");
  return (
    <RequireCapability anyOf={["broadcasts.read"]}>
      <BroadcastView key={id} id={id} canSend={canSend} />
    </RequireCapability>
  );
}
