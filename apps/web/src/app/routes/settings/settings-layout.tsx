import { NavLink, Outlet } from "react-router";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { useMember } from "../../../features/auth/use-session.ts";
import { settingsSections } from "./settings-sections.ts";

export function SettingsLayout() {
  const { can } = useMember();
  const visible = settingsSections.filter((section) => section.anyOf.some(can));
  return (
    <>
      <PageHeader title="Settings" description="Who can sign in, which systems may call the API, which providers deliver each channel, how this instance behaves, and a record of what changed." />
      <nav className="tabs" aria-label="Settings sections">
        {visible.map((section) => (
          <NavLink key={section.path} to={section.path} className="tab">
            {section.label}
          </NavLink>
        ))}
      </nav>
      <div className="stack">
        <Outlet />
      </div>
    </>
  );
}
