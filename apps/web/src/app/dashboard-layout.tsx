import { Link, NavLink, Outlet } from "react-router";
import { RoleBadge } from "../components/ui/role-badge.tsx";
import { SignOutButton } from "../features/auth/sign-out-button.tsx";
import { useMember } from "../features/auth/use-session.ts";
import { ServerVersion } from "../features/system/server-version.tsx";
import { UnconfiguredChannelsBanner } from "../features/system/unconfigured-channels-banner.tsx";
import { OpenAlertsBanner } from "../features/delivery/open-alerts-banner.tsx";
import { WorkspaceName } from "../features/system/workspace-name.tsx";
import { settingsCapabilities } from "./routes/settings/settings-sections.ts";

const sections = [
  { to: "/broadcasts", label: "Broadcasts" },
  { to: "/segments", label: "Segments" },
  { to: "/templates", label: "Templates" },
  { to: "/users", label: "Users" },
  { to: "/delivery", label: "Delivery" },
  { to: "/analytics", label: "Analytics" },
];

export function DashboardLayout() {
  const { member, can } = useMember();
  const showSettings = settingsCapabilities.some(can);

  return (
    <div className="shell">
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <aside className="sidebar">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Herald
        </Link>
        <nav className="nav" aria-label="Main">
          {sections.map((section) => (
            <NavLink key={section.to} to={section.to} className="nav-link">
              {section.label}
            </NavLink>
          ))}
          {can("audience.import") && (
            <NavLink to="/imports" className="nav-link">
              Import
            </NavLink>
          )}
          {showSettings && (
            <>
              <div className="nav-divider" role="presentation" />
              <NavLink to="/settings" className="nav-link">
                Settings
              </NavLink>
            </>
          )}
        </nav>
        <div className="sidebar-footer">
          <ServerVersion />
        </div>
      </aside>
      <div className="main">
        <header className="topbar">
          <WorkspaceName />
          <div className="topbar-actions">
            <div className="topbar-member">
              <span className="avatar" aria-hidden="true">
                {initials(member.name)}
              </span>
              <span className="topbar-name">{member.name}</span>
              <RoleBadge role={member.role} />
            </div>
            <SignOutButton />
          </div>
        </header>
        <UnconfiguredChannelsBanner />
        {can("operations.read") && <OpenAlertsBanner />}
        <main className="content" id="content" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const first = parts[0]?.[0] ?? "?";
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "";
  return (first + last).toUpperCase();
}
