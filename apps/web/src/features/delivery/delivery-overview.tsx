import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { formatTimestamp } from "../../lib/format-date.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { BacklogTable } from "./backlog-table.tsx";
import { ProviderHealthTable } from "./provider-health-table.tsx";

// TanStack Query pauses interval refetches while the browser tab is hidden.
const refreshMs = 5_000;

/** The machine at a glance: backlog and throughput per lane, health per provider; refreshes itself while visible. */
export function DeliveryOverview() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.operations.overview.queryOptions(undefined, { refetchInterval: refreshMs }));
  const data = overview.data;

  return (
    <div className="stack">
      <Card
        title="Backlog and throughput"
        description={
          data
            ? `Per channel and lane: notifications due and not yet sent, and what went out in the last ${data.windowMinutes} minutes. Updated ${formatTimestamp(data.generatedAt)}; refreshes every 5 seconds.`
            : "Per channel and lane: notifications due and not yet sent, and what went out lately."
        }
        flush
      >
        {overview.isPending ? (
          <TableSkeleton columns={7} rows={6} label="Loading the backlog" />
        ) : overview.isError && !data ? (
          <ErrorState error={overview.error} title="Could not load the delivery overview" onRetry={() => overview.refetch()} retrying={overview.isFetching} />
        ) : (
          <BacklogTable lanes={data!.lanes} windowMinutes={data!.windowMinutes} />
        )}
      </Card>
      <Card title="Providers" description="Each provider's token bucket (pacing shared by every worker), circuit breakers, and how its recent calls ended." flush>
        {overview.isPending ? (
          <TableSkeleton columns={5} rows={3} label="Loading provider health" />
        ) : overview.isError && !data ? (
          <ErrorState error={overview.error} title="Could not load provider health" onRetry={() => overview.refetch()} retrying={overview.isFetching} />
        ) : data!.providers.length === 0 ? (
          <EmptyState title="No provider has been used yet">
            Providers appear here once they are configured (<Link to="/settings/providers">Settings → Providers</Link>) or have sent something.
          </EmptyState>
        ) : (
          <ProviderHealthTable providers={data!.providers} windowMinutes={data!.windowMinutes} />
        )}
      </Card>
    </div>
  );
}
