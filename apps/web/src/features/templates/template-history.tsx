import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import type { TemplateDetail } from "./template-types.ts";
import { VersionCompare } from "./version-compare.tsx";
import { VersionsTable } from "./versions-table.tsx";

/** Every version with who published it when, and a diff of any two. */
export function TemplateHistory({ detail }: { detail: TemplateDetail }) {
  if (detail.versions.length === 0) {
    return (
      <Card>
        <EmptyState title="No versions yet">The draft was discarded before anything was published. Save a new draft to start again.</EmptyState>
      </Card>
    );
  }
  return (
    <div className="stack">
      <Card
        title="Versions"
        description="Published versions never change. Notifications keep the version that was current when they were created."
        flush
      >
        <VersionsTable detail={detail} />
      </Card>
      <VersionCompare templateKey={detail.template.key} versions={detail.versions} />
    </div>
  );
}
