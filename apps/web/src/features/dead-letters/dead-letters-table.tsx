import { Fragment, useEffect, useId, useRef, useState } from "react";
import { ChannelBadge } from "../../components/ui/channel-badge.tsx";
import { ExpandButton } from "../../components/ui/expand-button.tsx";
import { ReasonCell } from "../../components/ui/reason-cell.tsx";
import { RelativeTime } from "../../components/ui/relative-time.tsx";
import type { DeadLetter } from "../../lib/api-types.ts";
import { channelLabel } from "../../lib/channels.ts";
import { DeadLetterDetails } from "./dead-letter-details.tsx";

type Selection = { selected: ReadonlySet<string>; onChange: (selected: ReadonlySet<string>) => void };

/** Dead letters, newest first; `selection` adds the checkboxes, for members who may replay. */
export function DeadLettersTable({ deadLetters, selection }: { deadLetters: DeadLetter[]; selection?: Selection }) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const detailsId = useId();
  const columns = 7 + (selection ? 1 : 0);

  function toggle(id: string) {
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }

  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            {selection && (
              <th scope="col" className="cell-check">
                <SelectAll deadLetters={deadLetters} {...selection} />
              </th>
            )}
            <th scope="col" className="cell-expand">
              <span className="visually-hidden">Details</span>
            </th>
            <th scope="col">Died</th>
            <th scope="col">User</th>
            <th scope="col">Type</th>
            <th scope="col">Channel</th>
            <th scope="col">Reason</th>
            <th scope="col" className="cell-number">
              Attempts
            </th>
          </tr>
        </thead>
        <tbody>
          {deadLetters.map((deadLetter) => {
            const isExpanded = expanded.has(deadLetter.id);
            const rowDetailsId = `${detailsId}-${deadLetter.id}`;
            const name = `${deadLetter.type} (${channelLabel(deadLetter.channel)}) for ${deadLetter.userId ?? "a deleted user"}`;
            return (
              <Fragment key={deadLetter.id}>
                <tr className={isExpanded ? "row-expanded" : undefined}>
                  {selection && (
                    <td className="cell-check">
                      <input
                        type="checkbox"
                        className="checkbox-input"
                        aria-label={`Select ${name}`}
                        checked={selection.selected.has(deadLetter.id)}
                        onChange={(event) => {
                          const next = new Set(selection.selected);
                          if (event.target.checked) next.add(deadLetter.id);
                          else next.delete(deadLetter.id);
                          selection.onChange(next);
                        }}
                      />
                    </td>
                  )}
                  <td className="cell-expand">
                    <ExpandButton
                      expanded={isExpanded}
                      onToggle={() => toggle(deadLetter.id)}
                      controls={rowDetailsId}
                      label={`Details of ${name}`}
                    />
                  </td>
                  <td className="cell-nowrap">
                    <RelativeTime iso={deadLetter.deadAt} />
                  </td>
                  <td className="cell-strong">{deadLetter.userId ?? <span className="muted">Deleted user</span>}</td>
                  <td className="cell-nowrap">
                    <code className="code">{deadLetter.type}</code>
                  </td>
                  <td>
                    <ChannelBadge channel={deadLetter.channel} />
                  </td>
                  <ReasonCell reason={deadLetter.reason} />
                  <td className="cell-number">{deadLetter.attempts}</td>
                </tr>
                {isExpanded && (
                  <tr className="row-details" id={rowDetailsId}>
                    <td colSpan={columns}>
                      <DeadLetterDetails deadLetter={deadLetter} />
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

/** Selects or clears every loaded row; half-checked when only some are selected. */
function SelectAll({ deadLetters, selected, onChange }: { deadLetters: DeadLetter[] } & Selection) {
  const ref = useRef<HTMLInputElement>(null);
  const count = deadLetters.filter((deadLetter) => selected.has(deadLetter.id)).length;
  const all = count > 0 && count === deadLetters.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className="checkbox-input"
      aria-label="Select every dead letter listed"
      checked={all}
      onChange={() => onChange(all ? new Set() : new Set(deadLetters.map((deadLetter) => deadLetter.id)))}
    />
  );
}
