import { useQuery } from "@tanstack/react-query";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { PendingInvitesTable } from "./pending-invites-table.tsx";

export function PendingInvitesCard() {
  const trpc = useTRPC();
  // The same query as the members card: one request feeds both.
  const list = useQuery(trpc.members.list.queryOptions());
  return (
    <Card title="Pending invites" description="Invites that have not been accepted yet." flush>
      {list.isPending ? (
        <TableSkeleton columns={5} rows={2} label="Loading invites" />
      ) : list.isError ? (
        <ErrorState error={list.error} title="Could not load invites" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : list.data.invites.length === 0 ? (
        <EmptyState title="No pending invites">Invites you send appear here until someone accepts them.</EmptyState>
      ) : (
        <PendingInvitesTable invites={list.data.invites} members={list.data.members} />
      )}
    </Card>
  );
}
