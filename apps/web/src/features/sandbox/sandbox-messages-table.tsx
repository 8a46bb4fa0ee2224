import { Fragment, useId, useState } from "react";
import { ChannelBadge } from "../../components/ui/channel-badge.tsx";
import { ExpandButton } from "../../components/ui/expand-button.tsx";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import type { SandboxMessage } from "../../lib/api-types.ts";
import { channelLabel } from "../../lib/channels.ts";
import { SandboxMessageDetails } from "./sandbox-message-details.tsx";

const columns = 6;

export function SandboxMessagesTable({ messages }: { messages: SandboxMessage[] }) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const detailsId = useId();

  function toggle(id: string) {
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }

  return (
    <div className="table-wrap">
      <table className="table table-fixed">
        <colgroup>
          <col className="col-expand" />
          <col className="col-time" />
          <col className="col-channel" />
          <col className="col-recipient" />
          <col className="col-subject" />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col" className="cell-expand">
              <span className="visually-hidden">Details</span>
            </th>
            <th scope="col">Sent</th>
            <th scope="col">Channel</th>
            <th scope="col">To</th>
            <th scope="col">Subject / title</th>
            <th scope="col">Body</th>
          </tr>
        </thead>
        <tbody>
          {messages.map((message) => {
            const isExpanded = expanded.has(message.id);
            const rowDetailsId = `${detailsId}-${message.id}`;
            const heading = message.subject ?? message.title;
            return (
              <Fragment key={message.id}>
                <tr className={isExpanded ? "row-expanded" : undefined}>
                  <td className="cell-expand">
                    <ExpandButton
                      expanded={isExpanded}
                      onToggle={() => toggle(message.id)}
                      controls={rowDetailsId}
                      label={`Details of the ${channelLabel(message.channel)} message to ${message.recipient}`}
                    />
                  </td>
                  <td className="cell-nowrap">
                    <RelativeTime iso={message.createdAt} />
                  </td>
                  <td>
                    <ChannelBadge channel={message.channel} />
                  </td>
                  <td className="cell-truncate cell-strong" title={message.recipient}>
                    {message.recipient}
                  </td>
                  <td className="cell-truncate" title={heading ?? undefined}>
                    {heading ?? <span className="muted">—</span>}
                  </td>
                  <td className="cell-truncate muted">{message.body}</td>
                </tr>
                {isExpanded && (
                  <tr className="row-details" id={rowDetailsId}>
                    <td colSpan={columns}>
                      <SandboxMessageDetails message={message} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
