import { useMember } from "../../../features/auth/use-session.ts";
import { ProvidersList } from "../../../features/providers/providers-list.tsx";
import { RequireCapability } from "../../require-capability.tsx";

export function ProvidersRoute() {
  const { can } = useMember();
  return (
    <RequireCapability anyOf={["providers.read", "providers.manage"]}>
      <ProvidersList canManage={can("providers.manage")} />
    </RequireCapability>
  );
}
