import { NavLink, Outlet } from "react-router";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { RequireCapability } from "../../require-capability.tsx";

const tabs = [
  { path: "dead-letters", label: "Dead letters" },
  { path: "sandbox", label: "Sandbox outbox" },
];

export function DeliveryLayout() {
  return (
    <>
      <PageHeader
        title="Delivery"
        description="Notifications Herald gave up on and can send again, and, in development, what the sandbox providers received."
      />
      <RequireCapability anyOf={["deliveries.read"]}>
        <nav className="tabs" aria-label="Delivery sections">
          {tabs.map((tab) => (
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
