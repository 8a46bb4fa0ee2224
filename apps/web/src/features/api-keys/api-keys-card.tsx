import { useQuery } from "@tanstack/react-query";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { ApiKeysTable } from "./api-keys-table.tsx";

export function ApiKeysCard() {
  const trpc = useTRPC();
  const list = useQuery(trpc.apiKeys.list.queryOptions());
  return (
    <Card
      title="API keys"
      description="Keys your backend uses to call Herald's REST API. A revoked key stops working at once."
      flush
    >
      {list.isPending ? (
        <TableSkeleton columns={7} rows={3} label="Loading API keys" />
      ) : list.isError ? (
        <ErrorState error={list.error} title="Could not load API keys" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : list.data.keys.length === 0 ? (
        <EmptyState title="No API keys yet">Create one below to start sending events from your backend.</EmptyState>
      ) : (
        <ApiKeysTable keys={list.data.keys} />
      )}
    </Card>
  );
}
