import { useMember } from "../../../features/auth/use-session.ts";
import { SettingsList } from "../../../features/settings/settings-list.tsx";
import { RequireCapability } from "../../require-capability.tsx";

export function GeneralSettingsRoute() {
  const { can } = useMember();
  return (
    <RequireCapability anyOf={["settings.read", "settings.manage"]}>
      <SettingsList canEdit={can("settings.manage")} />
    </RequireCapability>
  );
}
