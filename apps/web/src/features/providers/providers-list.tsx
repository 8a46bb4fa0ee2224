import { useQuery } from "@tanstack/react-query";
import { Alert } from "../../components/ui/alert.tsx";
import { Card } from "../../components/ui/card.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { channels } from "../../lib/channels.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { ChannelProvidersCard } from "./channel-providers-card.tsx";

// Breakers open and tokens drain on their own: the health shown should not be minutes old.
const healthRefreshMs = 15_000;

/** One card per channel with its providers; `canManage` adds the forms and the test message. */
export function ProvidersList({ canManage }: { canManage: boolean }) {
  const trpc = useTRPC();
  const list = useQuery({ ...trpc.providers.list.queryOptions(), refetchInterval: healthRefreshMs });

  if (list.isPending) {
    return (
      <div className="stack" role="status">
        <span className="visually-hidden">Loading providers</span>
        {channels.map((channel) => (
          <div className="card" key={channel}>
            <div className="card-header">
              <Skeleton width="120px" />
            </div>
            <div className="card-body provider-slots">
              {[0, 1].map((slot) => (
                <div className="provider-slot" key={slot}>
                  <Skeleton width="30%" />
                  <Skeleton width="60%" />
                  <Skeleton width="80%" />
                </div>
              ))}
            </div>
          </div>
        ))}
      </div>
    );
  }
  if (list.isError) {
    return (
      <Card>
        <ErrorState error={list.error} title="Could not load providers" onRetry={() => list.refetch()} retrying={list.isFetching} />
      </Card>
    );
  }

  const { data } = list;
  return (
    <>
      {!data.secretKeyConfigured && (
        <Alert tone="warning" title="Provider credentials cannot be stored">
          Set <code className="code">HERALD_SECRET_KEY</code> to store provider credentials: they are encrypted with it at
          rest.
        </Alert>
      )}
      {!canManage && (
        <Alert tone="info">Your role can see providers and their health, but only an admin can change them or send tests.</Alert>
      )}
      {channels.map((channel) => (
        <ChannelProvidersCard key={channel} channel={channel} list={data} canManage={canManage} />
      ))}
    </>
  );
}
