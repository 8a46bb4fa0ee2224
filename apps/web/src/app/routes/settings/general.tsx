import { useMember } from "../../../features/auth/use-session.ts";
import { isRateLimitSetting } from "../../../features/settings/rate-limit-settings.ts";
import { SettingsList } from "../../../features/settings/settings-list.tsx";
import { RequireCapability } from "../../require-capability.tsx";

export function GeneralSettingsRoute() {
  const { can } = useMember();
  return (
    <RequireCapability anyOf={["settings.read", "settings.manage"]}>
      <SettingsList canEdit={can("settings.manage")} filter={(key) => !isRateLimitSetting(key)} />
    </RequireCapability>
  );
}
