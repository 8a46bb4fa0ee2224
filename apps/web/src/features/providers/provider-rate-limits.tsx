import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Card } from "../../components/ui/card.tsx";
import { ChannelBadge } from "../../components/ui/channel-badge.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { BreakerBadge } from "./breaker-badge.tsx";
import { getProviderKindSpec, providerKindLabel } from "./provider-kinds.ts";

/** Each provider's send rate and breaker state; the rate is edited on the provider itself. */
export function ProviderRateLimits() {
  const trpc = useTRPC();
  const list = useQuery(trpc.providers.list.queryOptions());
  return (
    <Card
      title="Provider rate limits"
      description={
        <>
          One token bucket per provider, shared by every worker: sends beyond it wait. Change a provider's rate on{" "}
          <Link to="/settings/providers">Providers</Link>; its secondary has a rate of its own.
        </>
      }
      flush
    >
      {list.isPending ? (
        <TableSkeleton columns={5} rows={3} label="Loading providers" />
      ) : list.isError ? (
        <ErrorState error={list.error} title="Could not load providers" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : list.data.providers.length === 0 ? (
        <EmptyState title="No providers configured">
          Configure one on <Link to="/settings/providers">Providers</Link>.
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">Role</th>
                <th scope="col">Provider</th>
                <th scope="col" className="cell-number">
                  Sends per second
                </th>
                <th scope="col">Breaker</th>
              </tr>
            </thead>
            <tbody>
              {list.data.providers.map((provider) => {
                const configured = typeof provider.settings.ratePerSecond === "number" ? provider.settings.ratePerSecond : null;
                const rate = configured ?? provider.ratePerSecond ?? getProviderKindSpec(provider.kind).defaultRatePerSecond;
                return (
                  <tr key={`${provider.source}-${provider.channel}-${provider.role}`}>
                    <td>
                      <ChannelBadge channel={provider.channel} />
                    </td>
                    <td>{provider.role === "primary" ? "Primary" : "Secondary"}</td>
                    <td>
                      {providerKindLabel(provider.kind)}
                      <div className="cell-sub muted">{provider.source === "environment" ? "set in the environment" : "set in the dashboard"}</div>
                    </td>
                    <td className="cell-number">
                      {rate.toLocaleString()}
                      {configured === null && <div className="cell-sub muted">default</div>}
                    </td>
                    <td>
                      <BreakerBadge breaker={provider.breaker} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
