import { useQuery } from "@tanstack/react-query";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { MembersTable } from "./members-table.tsx";

export function MembersCard({ currentMemberId }: { currentMemberId: string }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.members.list.queryOptions());
  return (
    <Card title="Members" description="Everyone who can sign in to this dashboard." flush>
      {list.isPending ? (
        <TableSkeleton columns={5} label="Loading members" />
      ) : list.isError ? (
        <ErrorState error={list.error} title="Could not load members" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : list.data.members.length === 0 ? (
        <EmptyState title="No members yet">Invite someone below.</EmptyState>
      ) : (
        <MembersTable members={list.data.members} currentMemberId={currentMemberId} />
      )}
    </Card>
  );
}
