import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { useMember } from "../auth/use-session.ts";
import { UserHistory } from "../user-history/user-history.tsx";
import { getErrorCode } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { ExplainPanel } from "./explain-panel.tsx";
import { PreferenceMatrix } from "./preference-matrix.tsx";
import { UserDevices, UserProfile, UserQuietHours } from "./user-profile.tsx";
import { UserSuppressions } from "./user-suppressions.tsx";
import { EraseUserZone, UserErased } from "./erase-user-zone.tsx";
import type { ErasureSummary } from "../../lib/api-types.ts";

/** Everything support needs about one user: who they are, how to reach them, what they chose, and what was sent. */
export function UserPage({ userId }: { userId: string }) {
  const trpc = useTRPC();
  const { can } = useMember();
  const [erased, setErased] = useState<ErasureSummary | null>(null);
  const details = useQuery({ ...trpc.users.get.queryOptions({ userId }), enabled: can("users.read") && !erased });

  if (erased) return <UserErased userId={userId} summary={erased} canReadAudit={can("audit.read")} />;

  // Members who may read the history but not the profile (marketers) still get the timeline.
  if (!can("users.read")) return <UserHistory userId={userId} />;
  if (details.isPending) {
    return (
      <Card title={`User ${userId}`}>
        <TableSkeleton columns={3} rows={4} label={`Loading ${userId}`} />
      </Card>
    );
  }
  if (details.isError) {
    if (getErrorCode(details.error) === "NOT_FOUND") {
      return (
        <Card>
          <EmptyState title={`No user has the id ${userId}`}>
            Ids match exactly, case included, as your backend sends them. Search by the start of an id, an email address or a
            phone number above.
          </EmptyState>
        </Card>
      );
    }
    return (
      <Card>
        <ErrorState error={details.error} title={`Could not load ${userId}`} onRetry={() => details.refetch()} retrying={details.isFetching} />
      </Card>
    );
  }
  const data = details.data;
  return (
    <div className="stack">
      <div className="user-grid">
        <UserProfile details={data} />
        <div className="stack">
          <UserDevices devices={data.devices} />
          <UserQuietHours windows={data.quietHours} timezone={data.user.timezone} />
        </div>
      </div>
      <PreferenceMatrix userId={userId} details={data} canEdit={can("preferences.edit")} />
      <UserSuppressions userId={userId} suppressions={data.suppressions} canLift={can("suppressions.lift")} />
      <ExplainPanel userId={userId} details={data} />
      {can("users.history") && <UserHistory userId={userId} types={data.notificationTypes} canResend={can("notifications.resend")} />}
      {can("users.erase") && <EraseUserZone userId={userId} onErased={setErased} />}
    </div>
  );
}
