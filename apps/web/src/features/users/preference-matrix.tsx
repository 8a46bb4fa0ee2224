import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Badge } from "../../components/ui/badge.tsx";
import { Card } from "../../components/ui/card.tsx";
import type { PreferenceCell, UserDetails } from "../../lib/api-types.ts";
import { channelLabel, channels } from "../../lib/channels.ts";
import { formatDateTime } from "../../lib/format-date.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";

const sourceLabels: Record<string, string> = {
  api: "API",
  unsubscribe_link: "unsubscribe link",
  support: "support",
  import: "import",
  dashboard: "dashboard",
};

/** What the select shows for a cell: the stored choice, or "default" when none is stored. */
function choiceOf(cell: PreferenceCell): "default" | "on" | "off" {
  if (cell.source === "default") return "default";
  return cell.enabled ? "on" : "off";
}

/**
 * The category × channel matrix: each cell on or off, a default shown as a default, a stored choice
 * with where it came from and when. Support and admins change cells here (audit-logged).
 */
export function PreferenceMatrix({ userId, details, canEdit }: { userId: string; details: UserDetails; canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const save = useMutation(
    trpc.users.setPreference.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.users.get.queryFilter({ userId })),
    }),
  );
  const cell = (category: string, channel: string) => details.preferences.find((p) => p.category === category && p.channel === channel);

  return (
    <Card
      title="Preferences"
      description={canEdit ? "Each category on each channel. A change here is recorded as made by support, in the audit log." : "Each category on each channel."}
      flush
    >
      {details.categories.length === 0 ? (
        <p className="card-notice muted">No categories are configured yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table preference-matrix">
            <thead>
              <tr>
                <th scope="col">Category</th>
                {channels.map((channel) => (
                  <th scope="col" key={channel}>
                    {channelLabel(channel)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {details.categories.map((category) => (
                <tr key={category.key}>
                  <td>
                    <span className="cell-strong">{category.label}</span>
                    <span className="cell-sub">
                      <code className="code">{category.key}</code> {category.mandatory && <Badge tone="info">Mandatory</Badge>}
                    </span>
                  </td>
                  {channels.map((channel) => {
                    const value = cell(category.key, channel);
                    if (!value) return <td key={channel} />;
                    const label = `${category.label} by ${channelLabel(channel)}`;
                    return (
                      <td key={channel} className="preference-cell">
                        <Badge tone={value.enabled ? "success" : "neutral"}>{value.enabled ? "On" : "Off"}</Badge>
                        <span className="cell-sub">
                          {value.mandatory
                            ? "always sent (mandatory)"
                            : value.source === "default"
                              ? "default"
                              : `${sourceLabels[value.source] ?? value.source}${value.changedAt ? ` · ${formatDateTime(value.changedAt)}` : ""}`}
                        </span>
                        {canEdit && !value.mandatory && (
                          <select
                            className="input input-sm select"
                            aria-label={label}
                            value={choiceOf(value)}
                            disabled={save.isPending}
                            onChange={(event) => {
                              const choice = event.target.value;
                              save.mutate({ userId, category: category.key, channel, enabled: choice === "default" ? null : choice === "on" });
                            }}
                          >
                            <option value="default">Default ({category.defaults[channel] ? "on" : "off"})</option>
                            <option value="on">On</option>
                            <option value="off">Off</option>
                          </select>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {save.isError && (
        <p className="card-notice field-error" role="alert">
          {getErrorMessage(save.error)}
        </p>
      )}
    </Card>
  );
}
