import "../../../features/broadcasts/broadcasts.css";
import { BroadcastComposer } from "../../../features/broadcasts/broadcast-composer.tsx";
import { RequireCapability } from "../../require-capability.tsx";

/** /broadcasts/new: the composer from its first step; the draft gets its own address once saved. */
export function BroadcastNewRoute() {
  return (
    <RequireCapability anyOf={["broadcasts.send"]}>
      <BroadcastComposer broadcast={null} initialStep="audience" />
    </RequireCapability>
  );
}
