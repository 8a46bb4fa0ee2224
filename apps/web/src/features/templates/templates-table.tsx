import { Link } from "react-router";
import { Badge } from "../../components/ui/badge.tsx";
import { ChannelBadge } from "../../components/ui/channel-badge.tsx";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import type { TemplateSummary } from "./template-types.ts";
import { versionLabel } from "./version-label.ts";

export function TemplatesTable({ templates }: { templates: TemplateSummary[] }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Template</th>
            <th scope="col">Channels</th>
            <th scope="col">Current version</th>
            <th scope="col">Last edited</th>
          </tr>
        </thead>
        <tbody>
          {templates.map((template) => (
            <tr key={template.key}>
              <td>
                <Link to={`/templates/${encodeURIComponent(template.key)}`} className="cell-strong">
                  {template.name}
                </Link>
                <code className="cell-sub">{template.key}</code>
              </td>
              <td>
                <span className="template-badges">
                  {template.channels.map((channel) => (
                    <ChannelBadge key={channel} channel={channel} />
                  ))}
                </span>
              </td>
              <td className="cell-nowrap">
                <span className="template-badges">
                  {template.currentVersion === null ? (
                    <span className="muted">Not published</span>
                  ) : (
                    <Badge tone="success">{versionLabel(template.currentVersion)}</Badge>
                  )}
                  {template.hasDraft && (
                    <Badge tone="warning" title="Unpublished changes: sends use the current version until the draft is published.">
                      Draft
                    </Badge>
                  )}
                </span>
              </td>
              <td className="cell-nowrap">
                <RelativeTime iso={template.updatedAt} />
                <span className="cell-sub">{template.updatedBy ? `by ${template.updatedBy}` : "by a removed member"}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
