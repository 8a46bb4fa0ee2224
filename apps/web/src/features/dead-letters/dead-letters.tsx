import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { LoadMoreFooter } from "../../components/ui/load-more-footer.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useManualRefresh } from "../../lib/use-manual-refresh.ts";
import { describeFilter, isFiltered, noFilter, type DeadLetterFilter } from "./dead-letter-filter.ts";
import { DeadLetterFilters } from "./dead-letter-filters.tsx";
import { DeadLettersTable } from "./dead-letters-table.tsx";
import { ReplayDeadLetters } from "./replay-dead-letters.tsx";

const pageSize = 50;

/** The dead-letter queue: filter it, read why each one died, and replay them. */
export function DeadLetters({ canReplay }: { canReplay: boolean }) {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<DeadLetterFilter>(noFilter);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [replayed, setReplayed] = useState<number | null>(null);
  const list = useInfiniteQuery(
    trpc.deadLetters.list.infiniteQueryOptions(
      { ...filter, limit: pageSize },
      { getNextPageParam: (page) => page.nextCursor },
    ),
  );
  const { refresh, refreshing } = useManualRefresh(list.refetch);
  const deadLetters = list.data?.pages.flatMap((page) => page.items) ?? [];
  // A replayed or refreshed-away row must not stay selected out of sight.
  const selectedIds = deadLetters.filter((deadLetter) => selected.has(deadLetter.id)).map((deadLetter) => deadLetter.id);

  function applyFilter(next: DeadLetterFilter) {
    setFilter(next);
    setSelected(new Set());
    setReplayed(null);
  }

  return (
    <Card
      title="Dead letters"
      description="Notifications Herald gave up on: a provider refused them for good, or their attempts or age ran out."
      actions={
        <Button size="sm" onClick={refresh} pending={refreshing}>
          Refresh
        </Button>
      }
      flush
    >
      <DeadLetterFilters applied={filter} onApply={applyFilter} />
      {replayed !== null && (
        <div className="card-notice">
          <Alert tone="success">
            {replayed === 0
              ? "Nothing was replayed: no dead letter matched any more."
              : `Replayed ${replayed.toLocaleString()} notification${replayed === 1 ? "" : "s"}: ${replayed === 1 ? "it is" : "they are"} queued to send again.`}
          </Alert>
        </div>
      )}
      {canReplay && deadLetters.length > 0 && (
        <div className="bulk-bar">
          <p className="bulk-bar-text">
            {selectedIds.length > 0
              ? `${selectedIds.length.toLocaleString()} of ${deadLetters.length.toLocaleString()} selected`
              : "Select dead letters to replay them, or replay everything that matches the filters."}
          </p>
          <div className="bulk-bar-actions">
            <ReplayDeadLetters
              selectedIds={selectedIds}
              filter={filter}
              loaded={deadLetters.length}
              complete={!list.hasNextPage}
              onReplayed={(count) => {
                setSelected(new Set());
                setReplayed(count);
              }}
            />
          </div>
        </div>
      )}
      {list.isPending ? (
        <TableSkeleton columns={6} rows={5} label="Loading dead letters" />
      ) : list.isError && deadLetters.length === 0 ? (
        <ErrorState error={list.error} title="Could not load dead letters" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : deadLetters.length === 0 ? (
        isFiltered(filter) ? (
          <EmptyState title="No matching dead letters">Nothing matches {describeFilter(filter)}.</EmptyState>
        ) : (
          <EmptyState title="No dead letters — every notification either reached a provider or is still trying.">
            A notification lands here when a provider refuses it for good, or its attempts or age run out.
          </EmptyState>
        )
      ) : (
        <>
          <DeadLettersTable
            deadLetters={deadLetters}
            selection={canReplay ? { selected, onChange: setSelected } : undefined}
          />
          <LoadMoreFooter
            query={list}
            end={
              <p className="muted">
                {deadLetters.length === 1 ? "1 dead letter" : `${deadLetters.length.toLocaleString()} dead letters`}, oldest last.
              </p>
            }
          />
        </>
      )}
    </Card>
  );
}
