import { AuditLog } from "../../../features/audit/audit-log.tsx";
import { RequireCapability } from "../../require-capability.tsx";

export function AuditLogRoute() {
  return (
    <RequireCapability anyOf={["audit.read"]}>
      <AuditLog />
    </RequireCapability>
  );
}
