import "../../../features/notification-types/notification-types.css";
import { useMember } from "../../../features/auth/use-session.ts";
import { NotificationTypesTable } from "../../../features/notification-types/notification-types-table.tsx";
import { RequireCapability } from "../../require-capability.tsx";

export function NotificationTypesRoute() {
  const { can } = useMember();
  return (
    <RequireCapability anyOf={["notificationTypes.read", "notificationTypes.manage"]}>
      <NotificationTypesTable canManage={can("notificationTypes.manage")} />
    </RequireCapability>
  );
}
