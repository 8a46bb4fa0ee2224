import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Card } from "../../components/ui/card.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { ContentEditor } from "./content-editor.tsx";
import type { TemplateDetail } from "./template-types.ts";
import { versionLabel } from "./version-label.ts";

/**
 * The draft when there is one; otherwise the current version, read-only until someone starts a
 * draft from it. Keyed by which of the two it shows, so publishing or discarding starts afresh.
 */
export function TemplateEditor({ detail }: { detail: TemplateDetail }) {
  const [published, setPublished] = useState<number | null>(null);
  const { template, draft } = detail;
  const notice = published !== null && (
    <Alert tone="success" title={`Published ${versionLabel(published)}`}>
      New notifications use it from now on. Start a draft from it to make the next change.
    </Alert>
  );

  if (draft !== null || template.currentVersion === null) {
    return (
      <ContentEditor
        key="draft"
        detail={detail}
        // A template whose only draft was discarded, before anything was published: saving starts a new one.
        initialBody={draft ?? { variables: [], content: {} }}
        editing={{ kind: "draft" }}
        onPublished={setPublished}
      />
    );
  }
  return (
    <div className="stack">
      {notice}
      <CurrentVersion key={template.currentVersion} detail={detail} version={template.currentVersion} onPublished={setPublished} />
    </div>
  );
}

function CurrentVersion({ detail, version, onPublished }: { detail: TemplateDetail; version: number; onPublished: (version: number) => void }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.templates.version.queryOptions({ key: detail.template.key, version }));
  if (query.isPending) {
    return (
      <Card>
        <div className="template-preview-loading" role="status">
          <span className="visually-hidden">{`Loading ${versionLabel(version)}`}</span>
          <Skeleton width="40%" />
          <Skeleton width="90%" className="skeleton-input" />
          <Skeleton width="90%" className="skeleton-input" />
        </div>
      </Card>
    );
  }
  if (query.isError) {
    return (
      <Card>
        <ErrorState error={query.error} title={`Could not load ${versionLabel(version)}`} onRetry={() => query.refetch()} retrying={query.isFetching} />
      </Card>
    );
  }
  return <ContentEditor detail={detail} initialBody={query.data.body} editing={{ kind: "version", version }} onPublished={onPublished} />;
}
