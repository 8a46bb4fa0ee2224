import { Badge } from "../../components/ui/badge.tsx";
import { ChannelBadge } from "../../components/ui/channel-badge.tsx";
import { PageHeader } from "../../components/ui/page-header.tsx";
import { EditSettingsButton } from "./edit-settings-button.tsx";
import type { TemplateDetail } from "./template-types.ts";
import { versionLabel } from "./version-label.ts";

/** The template's name and key, what is published, and whether a draft is open. */
export function TemplateHeader({ detail }: { detail: TemplateDetail }) {
  const { template, draft, canEdit } = detail;
  return (
    <PageHeader
      title={template.name}
      description={
        <span className="template-header-facts">
          <code className="code">{template.key}</code>
          {template.channels.map((channel) => (
            <ChannelBadge key={channel} channel={channel} />
          ))}
          {template.currentVersion === null ? (
            <Badge>Not published</Badge>
          ) : (
            <Badge tone="success" title="What new notifications use.">{`${versionLabel(template.currentVersion)} published`}</Badge>
          )}
          {draft !== null && <Badge tone="warning">Draft open</Badge>}
          <span className="muted">
            {`Default locale ${template.defaultLocale}`}
            {template.defaultCategory && ` · category ${template.defaultCategory}`}
          </span>
        </span>
      }
      actions={canEdit && <EditSettingsButton template={template} />}
    />
  );
}
