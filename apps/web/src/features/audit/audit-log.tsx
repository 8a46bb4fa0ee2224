import { useInfiniteQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { AuditLogTable } from "./audit-log-table.tsx";

const pageSize = 50;

/** The audit log, newest first, one page at a time. */
export function AuditLog() {
  const trpc = useTRPC();
  const [draft, setDraft] = useState("");
  const [action, setAction] = useState("");
  const suggestionsId = useId();
  const log = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions(
      action ? { limit: pageSize, action } : { limit: pageSize },
      { getNextPageParam: (page) => page.nextCursor },
    ),
  );
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];
  // Offer the actions already on screen: the server has no list of them, and members rarely know the exact names.
  const seenActions = [...new Set(entries.map((entry) => entry.action))].sort();

  function applyFilter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAction(draft.trim());
  }

  function clearFilter() {
    setDraft("");
    setAction("");
  }

  return (
    <Card
      title="Audit log"
      description="Who changed what, newest first."
      flush
    >
      <form className="toolbar" onSubmit={applyFilter} role="search">
        <TextField
          label="Action"
          name="action"
          placeholder="e.g. members"
          hint="Matches the start of the action name."
          autoComplete="off"
          list={suggestionsId}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <datalist id={suggestionsId}>
          {seenActions.map((seen) => (
            <option key={seen} value={seen} />
          ))}
        </datalist>
        <div className="toolbar-buttons">
          <Button type="submit">Filter</Button>
          {action && (
            <Button variant="ghost" onClick={clearFilter}>
              Clear filter
            </Button>
          )}
        </div>
      </form>
      {log.isPending ? (
        <TableSkeleton columns={5} rows={6} label="Loading audit log" />
      ) : log.isError && entries.length === 0 ? (
        <ErrorState error={log.error} title="Could not load the audit log" onRetry={() => log.refetch()} retrying={log.isFetching} />
      ) : entries.length === 0 ? (
        <EmptyState title={action ? "No matching entries" : "No entries yet"}>
          {action ? (
            <>
              Nothing in the audit log has the action <code className="code">{action}</code>.
            </>
          ) : (
            "Changes to members and settings are recorded here."
          )}
        </EmptyState>
      ) : (
        <>
          <AuditLogTable entries={entries} />
          <div className="table-footer">
            {log.isFetchNextPageError && (
              <p className="field-error" role="alert">
                {getErrorMessage(log.error)}
              </p>
            )}
            {log.hasNextPage ? (
              <Button onClick={() => log.fetchNextPage()} pending={log.isFetchingNextPage}>
                Load more
              </Button>
            ) : (
              <p className="muted">End of the log: {entries.length === 1 ? "1 entry" : `${entries.length} entries`}.</p>
            )}
          </div>
        </>
      )}
    </Card>
  );
}
