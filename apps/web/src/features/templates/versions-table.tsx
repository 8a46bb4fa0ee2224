import { useNavigate } from "react-router";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import { ArchiveVersionButton } from "./archive-version-button.tsx";
import { EditVersionButton } from "./edit-version-button.tsx";
import type { TemplateDetail } from "./template-types.ts";
import { versionLabel } from "./version-label.ts";
import { VersionStatusBadge } from "./version-status-badge.tsx";

/** The draft first, then every published and archived version, newest first. */
export function VersionsTable({ detail }: { detail: TemplateDetail }) {
  const navigate = useNavigate();
  const { template, versions, canEdit } = detail;
  const hasDraft = versions.some((version) => version.status === "draft");

  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Status</th>
            <th scope="col">Published</th>
            <th scope="col">Last edited</th>
            {canEdit && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {versions.map((version) => {
            const isCurrent = version.version !== null && version.version === template.currentVersion;
            return (
              <tr key={version.version ?? "draft"}>
                <td className="cell-strong">
                  {versionLabel(version.version)}
                  {version.basedOn !== null && <span className="cell-sub">{`from ${versionLabel(version.basedOn)}`}</span>}
                </td>
                <td>
                  <VersionStatusBadge status={version.status} isCurrent={isCurrent} />
                </td>
                <td className="cell-nowrap">
                  {version.publishedAt ? (
                    <>
                      <RelativeTime iso={version.publishedAt} />
                      <span className="cell-sub">{`by ${version.publishedBy ?? "a removed member"}`}</span>
                    </>
                  ) : (
                    <span className="muted">Not published</span>
                  )}
                </td>
                <td className="cell-nowrap">
                  <RelativeTime iso={version.updatedAt} />
                  <span className="cell-sub">{`by ${version.updatedBy ?? "a removed member"}`}</span>
                </td>
                {canEdit && (
                  <td className="cell-actions">
                    {version.version !== null && (
                      <span className="template-row-actions">
                        {version.status === "published" && !isCurrent && (
                          <ArchiveVersionButton templateKey={template.key} version={version.version} />
                        )}
                        <EditVersionButton
                          templateKey={template.key}
                          version={version.version}
                          hasDraft={hasDraft}
                          size="sm"
                          onStarted={() => navigate(`/templates/${encodeURIComponent(template.key)}`)}
                        >
                          {`Start a draft from ${versionLabel(version.version)}`}
                        </EditVersionButton>
                      </span>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
