import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { PageHeader } from "../../components/ui/page-header.tsx";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import { PageSpinner } from "../../components/ui/spinner.tsx";
import { hasErrorCode } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { DiscardImportButton } from "./discard-import-button.tsx";
import { formatCount, formatSize } from "./format-count.ts";
import { ImportErrors } from "./import-errors.tsx";
import { ImportProgress } from "./import-progress.tsx";
import { ImportStatusBadge, KIND_LABELS } from "./import-status-badge.tsx";
import { MappingStep } from "./mapping-step.tsx";

const DELIMITERS: Record<string, string> = { ",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe" };

/** One import: its mapping while uploaded, then its progress, counts and refused rows. */
export function ImportView({ id }: { id: string }) {
  const trpc = useTRPC();
  const detail = useQuery(
    trpc.imports.get.queryOptions(
      { id },
      { refetchInterval: (query) => (query.state.data?.status === "queued" || query.state.data?.status === "running" ? 1000 : false) },
    ),
  );
  const back = (
    <p className="import-breadcrumb">
      <Link to="/imports">← Imports</Link>
    </p>
  );

  if (detail.isPending) return <PageSpinner label="Loading the import" />;
  if (detail.isError) {
    return (
      <>
        {back}
        <Card>
          {hasErrorCode(detail.error, "NOT_FOUND") ? (
            <EmptyState title="No such import">It may have been discarded. Upload the file again to import it.</EmptyState>
          ) : (
            <ErrorState error={detail.error} title="Could not load this import" onRetry={() => detail.refetch()} retrying={detail.isFetching} />
          )}
        </Card>
      </>
    );
  }

  const d = detail.data;
  const settled = d.status !== "queued" && d.status !== "running";
  return (
    <>
      {back}
      <PageHeader
        title={d.fileName}
        description={
          <>
            <ImportStatusBadge status={d.status} /> {d.kind && `${KIND_LABELS[d.kind]} · `}
            {formatCount(d.totalRows)} rows · {d.header.length} columns ({DELIMITERS[d.delimiter] ?? d.delimiter}-separated) · {formatSize(d.byteSize)} ·
            uploaded <RelativeTime iso={d.createdAt} />
            {d.createdBy && ` by ${d.createdBy}`}
          </>
        }
        actions={settled && <DiscardImportButton id={d.id} fileName={d.fileName} />}
      />
      {d.status === "uploaded" ? (
        <MappingStep detail={d} />
      ) : (
        <div className="stack">
          <ImportProgress detail={d} />
          {d.failedRows > 0 && settled && <ImportErrors id={d.id} header={d.header} failed={d.failedRows} />}
        </div>
      )}
    </>
  );
}
