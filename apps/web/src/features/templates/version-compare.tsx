import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { SelectField } from "../../components/ui/field.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { FieldDiffs } from "./field-diffs.tsx";
import type { TemplateVersion } from "./template-types.ts";
import { versionLabel } from "./version-label.ts";

type VersionRef = number | "draft";

/** Any two versions (or the draft) side by side, field by field. */
export function VersionCompare({ templateKey, versions }: { templateKey: string; versions: TemplateVersion[] }) {
  const refs: VersionRef[] = versions.map((version) => version.version ?? "draft");
  // Newest against the one before it: what the last publish (or the open draft) changed.
  const [from, setFrom] = useState<VersionRef | undefined>(refs[1]);
  const [to, setTo] = useState<VersionRef | undefined>(refs[0]);

  if (from === undefined || to === undefined) {
    return (
      <Card title="Compare versions">
        <EmptyState title="Nothing to compare yet">
          There is only one version so far. Each publish adds one, and any two can be compared here.
        </EmptyState>
      </Card>
    );
  }

  const pick = (value: string): VersionRef => (value === "draft" ? "draft" : Number(value));
  return (
    <Card title="Compare versions" description="Removed lines on the left, added lines on the right." flush>
      <div className="toolbar">
        <SelectField label="From" className="toolbar-field-sm" value={String(from)} onChange={(event) => setFrom(pick(event.target.value))}>
          {refs.map((ref) => (
            <option key={ref} value={String(ref)}>
              {versionLabel(ref === "draft" ? null : ref)}
            </option>
          ))}
        </SelectField>
        <SelectField label="To" className="toolbar-field-sm" value={String(to)} onChange={(event) => setTo(pick(event.target.value))}>
          {refs.map((ref) => (
            <option key={ref} value={String(ref)}>
              {versionLabel(ref === "draft" ? null : ref)}
            </option>
          ))}
        </SelectField>
      </div>
      <Differences templateKey={templateKey} from={from} to={to} />
    </Card>
  );
}

function Differences({ templateKey, from, to }: { templateKey: string; from: VersionRef; to: VersionRef }) {
  const trpc = useTRPC();
  const diff = useQuery(trpc.templates.diff.queryOptions({ key: templateKey, from, to }, { enabled: from !== to, placeholderData: keepPreviousData }));
  const fromLabel = versionLabel(from === "draft" ? null : from);
  const toLabel = versionLabel(to === "draft" ? null : to);

  if (from === to) return <EmptyState title="The same version twice">Pick two different versions to see what changed.</EmptyState>;
  if (diff.isPending) return <TableSkeleton columns={2} rows={4} label="Loading the differences" />;
  if (diff.isError) {
    return <ErrorState error={diff.error} title="Could not compare these versions" onRetry={() => diff.refetch()} retrying={diff.isFetching} />;
  }
  if (diff.data.fields.length === 0) {
    return <EmptyState title="No differences">{`${fromLabel} and ${toLabel} have the same content and variables.`}</EmptyState>;
  }
  return (
    <div className="card-body">
      <FieldDiffs fields={diff.data.fields} fromLabel={fromLabel} toLabel={toLabel} />
    </div>
  );
}
