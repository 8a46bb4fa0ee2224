import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { channelLabel } from "../../lib/channels.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useManualRefresh } from "../../lib/use-manual-refresh.ts";
import { noOutboxFilter, SandboxOutboxFilters, type OutboxFilter } from "./sandbox-outbox-filters.tsx";
import { SandboxMessagesTable } from "./sandbox-messages-table.tsx";
import { TestIdentitiesCard } from "./test-identities-card.tsx";

const pageSize = 50;
// The server's own cap on `limit`: the outbox has no cursor, so "Show more" asks for a longer page.
const maxMessages = 500;
// TanStack Query pauses interval refetches while the browser tab is hidden.
const refreshMs = 5_000;

/** What the sandbox providers "sent" in development mode, newest first, refreshing itself. */
export function SandboxOutbox() {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<OutboxFilter>(noOutboxFilter);
  const [limit, setLimit] = useState(pageSize);
  const status = useQuery(trpc.system.status.queryOptions());
  const outbox = useQuery(
    trpc.sandbox.messages.queryOptions(
      { ...filter, limit },
      { refetchInterval: refreshMs, placeholderData: keepPreviousData },
    ),
  );
  const { refresh, refreshing } = useManualRefresh(outbox.refetch);
  const messages = outbox.data?.items ?? [];
  const filtered = filter.to !== null || filter.channel !== null;
  const production = status.data?.mode === "production";

  return (
    <div className="stack">
      <Card
        title="Sandbox outbox"
        description="Messages the sandbox providers received instead of a real provider, newest first. Refreshes every 5 seconds."
        actions={
          <Button size="sm" onClick={refresh} pending={refreshing}>
            Refresh
          </Button>
        }
        flush
      >
        <SandboxOutboxFilters
          applied={filter}
          onApply={(next) => {
            setFilter(next);
            setLimit(pageSize);
          }}
        />
        {outbox.isPending ? (
          <TableSkeleton columns={5} rows={5} label="Loading the sandbox outbox" />
        ) : outbox.isError && messages.length === 0 ? (
          <ErrorState error={outbox.error} title="Could not load the sandbox outbox" onRetry={() => outbox.refetch()} retrying={outbox.isFetching} />
        ) : messages.length === 0 ? (
          filtered ? (
            <EmptyState title="No matching messages">
              The sandbox has sent nothing{filter.channel ? ` by ${channelLabel(filter.channel)}` : ""}
              {filter.to ? (
                <>
                  {" "}
                  to <code className="code">{filter.to}</code>
                </>
              ) : null}{" "}
              yet. The recipient must match exactly.
            </EmptyState>
          ) : production ? (
            <EmptyState title="The sandbox is off in production">
              This instance sends through real providers only, so nothing arrives here. Run Herald with HERALD_MODE=development
              to try notifications without sending them.
            </EmptyState>
          ) : (
            <EmptyState title="The outbox is empty">
              In development mode, a channel without provider credentials delivers here instead. Post an event and its
              messages appear within seconds.
            </EmptyState>
          )
        ) : (
          <>
            <SandboxMessagesTable messages={messages} />
            <div className="table-footer">
              {messages.length >= limit && limit < maxMessages ? (
                <Button onClick={() => setLimit((current) => Math.min(current + pageSize, maxMessages))} pending={outbox.isPlaceholderData}>
                  Show more
                </Button>
              ) : (
                <p className="muted">
                  {messages.length >= maxMessages
                    ? `The ${maxMessages} most recent messages; filter by recipient to find older ones.`
                    : `${messages.length === 1 ? "1 message" : `${messages.length} messages`}, oldest last.`}
                </p>
              )}
            </div>
          </>
        )}
      </Card>
      {outbox.data && <TestIdentitiesCard identities={outbox.data.identities} />}
    </div>
  );
}
