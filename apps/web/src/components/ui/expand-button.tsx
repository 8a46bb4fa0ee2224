import { classNames } from "../../lib/class-names.ts";

/**
 * The chevron that opens a table row's details; `controls` is the id of the details row, which
 * is only rendered while open (so only then does the button point at it).
 */
export function ExpandButton({
  expanded,
  onToggle,
  controls,
  label,
}: {
  expanded: boolean;
  onToggle: () => void;
  controls: string;
  /** Names the row, e.g. "Details of order.paid by SMS": every row's button needs its own name. */
  label: string;
}) {
  return (
    <button
      type="button"
      className={classNames("expand-button", expanded && "expanded")}
      aria-expanded={expanded}
      aria-controls={expanded ? controls : undefined}
      aria-label={label}
      onClick={onToggle}
    >
      <span className="expand-chevron" aria-hidden="true" />
    </button>
  );
}
