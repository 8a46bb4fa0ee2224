import { useMember } from "../../../features/auth/use-session.ts";
import { ProviderRateLimits } from "../../../features/providers/provider-rate-limits.tsx";
import { isRateLimitSetting } from "../../../features/settings/rate-limit-settings.ts";
import { SettingsList } from "../../../features/settings/settings-list.tsx";
import { RequireCapability } from "../../require-capability.tsx";

/** Where an admin looks for send rates and circuit breakers: per provider, and the thresholds every provider shares. */
export function RateLimitsRoute() {
  const { can } = useMember();
  return (
    <RequireCapability anyOf={["providers.read", "settings.read"]}>
      {can("providers.read") && <ProviderRateLimits />}
      {can("settings.read") && (
        <SettingsList
          canEdit={can("settings.manage")}
          title="Breakers and backlog"
          description="When a provider's circuit opens, how long it rests, and how much waiting work makes ingest push back."
          filter={isRateLimitSetting}
        />
      )}
    </RequireCapability>
  );
}
