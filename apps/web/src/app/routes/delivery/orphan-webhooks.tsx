import { OrphanWebhooks } from "../../../features/delivery/orphan-webhooks.tsx";
import { RequireCapability } from "../../require-capability.tsx";

export function OrphanWebhooksRoute() {
  return (
    <RequireCapability anyOf={["operations.read"]}>
      <OrphanWebhooks />
    </RequireCapability>
  );
}
