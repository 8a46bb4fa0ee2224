import { useMember } from "../../../features/auth/use-session.ts";
import { AuditLog } from "../../../features/audit/audit-log.tsx";
import { RequireCapability } from "../../require-capability.tsx";

export function AuditLogRoute() {
  const { can } = useMember();
  return (
    <RequireCapability anyOf={["audit.read"]}>
      <AuditLog canListMembers={can("members.manage")} />
    </RequireCapability>
  );
}
