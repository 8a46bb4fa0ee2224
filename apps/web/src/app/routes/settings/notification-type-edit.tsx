import "../../../features/notification-types/notification-types.css";
import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { Card } from "../../../components/ui/card.tsx";
import { ErrorState } from "../../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../../components/ui/skeleton.tsx";
import { blankStep, draftFromType } from "../../../features/notification-types/type-draft.ts";
import { TypeEditor } from "../../../features/notification-types/type-editor.tsx";
import { useTRPC } from "../../../lib/trpc.ts";
import { RequireCapability } from "../../require-capability.tsx";

/** /settings/notification-types/new and /settings/notification-types/:type. */
export function NotificationTypeEditRoute() {
  const { type } = useParams();
  return (
    <RequireCapability anyOf={["notificationTypes.manage"]}>
      {type ? <ExistingType type={type} /> : <TypeEditor start={{ type: "", steps: [blankStep("email", "")] }} isNew />}
    </RequireCapability>
  );
}

function ExistingType({ type }: { type: string }) {
  const trpc = useTRPC();
  const found = useQuery(trpc.notificationTypes.get.queryOptions({ type }));
  if (found.isPending) {
    return (
      <Card title="Notification type">
        <TableSkeleton columns={3} rows={4} label="Loading the notification type" />
      </Card>
    );
  }
  if (found.isError) {
    return (
      <Card title="Notification type">
        <ErrorState error={found.error} title="Could not load this notification type" onRetry={() => found.refetch()} retrying={found.isFetching} />
      </Card>
    );
  }
  return <TypeEditor start={draftFromType(found.data.notificationType)} isNew={false} />;
}
