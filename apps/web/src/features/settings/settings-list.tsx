import { useQuery } from "@tanstack/react-query";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { SettingRow } from "./setting-row.tsx";

type SettingsListProps = {
  canEdit: boolean;
  title?: string;
  description?: string;
  /** Show only settings this accepts (a page of related settings), or all of them. */
  filter?: (key: string) => boolean;
};

export function SettingsList({ canEdit, title = "General", description = "Instance-wide defaults.", filter = () => true }: SettingsListProps) {
  const trpc = useTRPC();
  const list = useQuery(trpc.settings.list.queryOptions());
  const shown = list.data?.settings.filter((setting) => filter(setting.key)) ?? [];
  return (
    <Card
      title={title}
      description={
        canEdit
          ? `${description} Settings pinned by an environment variable can only be changed on the server.`
          : `${description} Your role can read these settings but not change them.`
      }
      flush
    >
      {list.isPending ? (
        <div className="setting-list" role="status">
          <span className="visually-hidden">Loading settings</span>
          {[0, 1, 2].map((row) => (
            <div className="setting-row" key={row}>
              <div className="setting-text">
                <Skeleton width="30%" />
                <Skeleton width="70%" />
              </div>
              <div className="setting-control">
                <Skeleton width="100%" className="skeleton-input" />
              </div>
            </div>
          ))}
        </div>
      ) : list.isError ? (
        <ErrorState error={list.error} title="Could not load settings" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : shown.length === 0 ? (
        <EmptyState title="No settings">This version of Herald has no settings to change here.</EmptyState>
      ) : (
        <div className="setting-list">
          {shown.map((setting) => (
            <SettingRow key={setting.key} setting={setting} canEdit={canEdit} />
          ))}
        </div>
      )}
    </Card>
  );
}
