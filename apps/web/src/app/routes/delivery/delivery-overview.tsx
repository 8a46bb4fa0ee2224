import { DeliveryOverview } from "../../../features/delivery/delivery-overview.tsx";
import { RequireCapability } from "../../require-capability.tsx";

export function DeliveryOverviewRoute() {
  return (
    <RequireCapability anyOf={["operations.read"]}>
      <DeliveryOverview />
    </RequireCapability>
  );
}
