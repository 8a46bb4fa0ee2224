import { Navigate, NavLink, Outlet } from "react-router";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { useMember } from "../../../features/auth/use-session.ts";
import type { Capability } from "../../../lib/capabilities.ts";
import { RequireCapability } from "../../require-capability.tsx";

const tabs: Array<{ path: string; label: string; needs: Capability }> = [
  { path: "overview", label: "Overview", needs: "operations.read" },
  { path: "dead-letters", label: "Dead letters", needs: "deliveries.read" },
  { path: "sandbox", label: "Sandbox outbox", needs: "deliveries.read" },
  { path: "orphaned-webhooks", label: "Orphaned webhooks", needs: "operations.read" },
  { path: "alerts", label: "Alerts", needs: "operations.read" },
];

export function DeliveryLayout() {
  const { can } = useMember();
  return (
    <>
      <PageHeader
        title="Delivery"
        description="The machine: what waits to be sent, how each provider is doing, alerts, notifications Herald gave up on and can send again, and, in development, what the sandbox providers received."
      />
      <RequireCapability anyOf={["deliveries.read", "operations.read"]}>
        <nav className="tabs" aria-label="Delivery sections">
          {tabs
            .filter((tab) => can(tab.needs))
            .map((tab) => (
              <NavLink key={tab.path} to={tab.path} className="tab">
                {tab.label}
              </NavLink>
            ))}
        </nav>
        <Outlet />
      </RequireCapability>
    </>
  );
}

/** /delivery opens on the overview for those who may see it, else on the dead letters. */
export function DeliveryIndex() {
  const { can } = useMember();
  return <Navigate to={can("operations.read") ? "overview" : "dead-letters"} replace />;
}
