import { useMember } from "../../../features/auth/use-session.ts";
import { AlertWebhookSecret } from "../../../features/delivery/alert-webhook-secret.tsx";
import { AlertsList } from "../../../features/delivery/alerts-list.tsx";
import { RequireCapability } from "../../require-capability.tsx";

export function AlertsRoute() {
  const { can } = useMember();
  return (
    <RequireCapability anyOf={["operations.read"]}>
      <div className="stack">
        <AlertsList />
        {can("settings.manage") && <AlertWebhookSecret />}
      </div>
    </RequireCapability>
  );
}
