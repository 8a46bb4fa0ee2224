import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Badge } from "../../components/ui/badge.tsx";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { channelLabel, channels } from "../../lib/channels.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { DeleteCategoryButton } from "./delete-category-button.tsx";

/** Every category with its defaults; admins edit and delete from here. */
export function CategoriesTable({ canManage }: { canManage: boolean }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.categories.list.queryOptions());
  const newButton = canManage ? (
    <Link className="btn btn-primary" to="/settings/categories/new">
      New category
    </Link>
  ) : null;

  return (
    <Card
      title="Categories"
      description="What notifications are about. Users opt in or out per category and channel; a mandatory category cannot be switched off."
      actions={newButton}
      flush
    >
      {list.isPending ? (
        <TableSkeleton columns={6} rows={4} label="Loading categories" />
      ) : list.isError ? (
        <ErrorState error={list.error} title="Could not load categories" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : list.data.categories.length === 0 ? (
        <EmptyState title="No categories yet" action={newButton}>
          Every notification type names a category: create one first.
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Category</th>
                <th scope="col">Default on</th>
                <th scope="col">Aliases</th>
                <th scope="col">Tracking</th>
                <th scope="col">Frequency cap</th>
                {canManage && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.data.categories.map((category) => (
                <tr key={category.key}>
                  <td>
                    <div className="cell-strong">
                      {canManage ? <Link to={`/settings/categories/${encodeURIComponent(category.key)}`}>{category.label}</Link> : category.label}{" "}
                      {category.mandatory && <Badge tone="warning">Mandatory</Badge>}
                    </div>
                    <code className="code cell-sub">{category.key}</code>
                  </td>
                  <td>
                    <div className="category-defaults">
                      {channels.filter((channel) => category.defaults[channel]).map((channel) => (
                        <Badge key={channel} tone="success">
                          {channelLabel(channel)}
                        </Badge>
                      ))}
                      {channels.every((channel) => !category.defaults[channel]) && <span className="muted">Opt-in only</span>}
                    </div>
                  </td>
                  <td>{category.aliases.length > 0 ? <code className="code">{category.aliases.join(", ")}</code> : <span className="muted">—</span>}</td>
                  <td>{[category.tracking.opens && "opens", category.tracking.clicks && "clicks"].filter(Boolean).join(", ") || <span className="muted">Off</span>}</td>
                  <td>
                    {category.frequencyCap ? (
                      `${category.frequencyCap.max} per ${formatWindow(category.frequencyCap.windowSeconds)}, then ${category.frequencyCap.action}`
                    ) : (
                      <span className="muted">None</span>
                    )}
                  </td>
                  {canManage && (
                    <td className="cell-actions">
                      <DeleteCategoryButton category={category} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

function formatWindow(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? "day" : `${seconds / 86_400} days`;
  if (seconds % 3600 === 0) return seconds === 3600 ? "hour" : `${seconds / 3600} hours`;
  return `${Math.round(seconds / 60)} min`;
}
