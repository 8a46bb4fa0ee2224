import { Navigate } from "react-router";
import { Card } from "../../../components/ui/card.tsx";
import { EmptyState } from "../../../components/ui/empty-state.tsx";
import { useMember } from "../../../features/auth/use-session.ts";
import { settingsSections } from "./settings-sections.ts";

/** /settings opens the first tab this member may see. */
export function SettingsIndex() {
  const { can } = useMember();
  const first = settingsSections.find((section) => section.anyOf.some(can));
  if (first) return <Navigate to={first.path} replace />;
  return (
    <Card>
      <EmptyState title="No settings for your role">An admin manages members and settings for this instance.</EmptyState>
    </Card>
  );
}
