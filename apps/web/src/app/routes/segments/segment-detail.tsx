import "../../../features/segments/segments.css";
import type { Rule } from "@herald/core/browser";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { Card } from "../../../components/ui/card.tsx";
import { EmptyState } from "../../../components/ui/empty-state.tsx";
import { ErrorState } from "../../../components/ui/error-state.tsx";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { PageSpinner } from "../../../components/ui/spinner.tsx";
import { useMember } from "../../../features/auth/use-session.ts";
import { SegmentEditor } from "../../../features/segments/segment-editor.tsx";
import { hasErrorCode } from "../../../lib/trpc-error.ts";
import { useTRPC } from "../../../lib/trpc.ts";
import { RequireCapability } from "../../require-capability.tsx";

/** /segments/:id: the saved segment in the builder, read-only for roles that cannot edit. */
export function SegmentDetailRoute() {
  const { id = "" } = useParams();
  return (
    <RequireCapability anyOf={["segments.read"]}>
      <SegmentDetail key={id} id={id} />
    </RequireCapability>
  );
}

function SegmentDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const canEdit = useMember().can("segments.edit");
  // Loaded once: a background refetch must not reset what is being edited.
  const detail = useQuery(trpc.segments.get.queryOptions({ id }, { staleTime: Infinity, refetchOnWindowFocus: false }));

  if (detail.isPending) return <PageSpinner label="Loading the segment" />;
  if (detail.isError) {
    return (
      <>
        <p className="segment-breadcrumb">
          <Link to="/segments">← Segments</Link>
        </p>
        <PageHeader title="Segment" />
        <Card>
          {hasErrorCode(detail.error, "NOT_FOUND") ? (
            <EmptyState title="No such segment" action={<Link to="/segments">See every segment</Link>}>
              It may have been deleted, or the address mistyped.
            </EmptyState>
          ) : (
            <ErrorState error={detail.error} title="Could not load this segment" onRetry={() => detail.refetch()} retrying={detail.isFetching} />
          )}
        </Card>
      </>
    );
  }
  const { segment } = detail.data;
  return (
    <SegmentEditor
      start={{ id: segment.id, name: segment.name, description: segment.description, rule: segment.rule as Rule }}
      canEdit={canEdit}
    />
  );
}
