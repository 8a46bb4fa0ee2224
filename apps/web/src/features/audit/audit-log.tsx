import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { LoadMoreFooter } from "../../components/ui/load-more-footer.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { auditQueryInput, isFiltered, noFilter } from "./audit-filter.ts";
import { AuditFilters } from "./audit-filters.tsx";
import { AuditLogTable } from "./audit-log-table.tsx";

const pageSize = 50;

/** The audit log, newest first, one page at a time, narrowed by member, action and days. */
export function AuditLog({ canListMembers }: { canListMembers: boolean }) {
  const trpc = useTRPC();
  const [filter, setFilter] = useState(noFilter);
  const backwards = filter.fromDay !== "" && filter.toDay !== "" && filter.toDay < filter.fromDay;
  const log = useInfiniteQuery({
    ...trpc.audit.list.infiniteQueryOptions({ limit: pageSize, ...auditQueryInput(filter) }, { getNextPageParam: (page) => page.nextCursor }),
    enabled: !backwards,
  });
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = isFiltered(filter);

  return (
    <Card title="Audit log" description="Who changed what, newest first." flush>
      <AuditFilters filter={filter} onChange={setFilter} canListMembers={canListMembers} />
      {backwards ? (
        <EmptyState title="No days in that range">Choose a To day on or after the From day.</EmptyState>
      ) : log.isPending ? (
        <TableSkeleton columns={5} rows={6} label="Loading audit log" />
      ) : log.isError && entries.length === 0 ? (
        <ErrorState error={log.error} title="Could not load the audit log" onRetry={() => log.refetch()} retrying={log.isFetching} />
      ) : entries.length === 0 ? (
        <EmptyState title={filtered ? "No matching entries" : "No entries yet"}>
          {filtered ? "Nothing in the audit log matches these filters." : "Changes to members, settings, categories, notification types and keys are recorded here."}
        </EmptyState>
      ) : (
        <>
          <AuditLogTable entries={entries} />
          <LoadMoreFooter query={log} end={<p className="muted">End of the log: {entries.length === 1 ? "1 entry" : `${entries.length} entries`}.</p>} />
        </>
      )}
    </Card>
  );
}
