import { describeReason } from "../../lib/describe-reason.ts";

/** A table cell with a reason code in plain words above the code itself, or a dash when none. */
export function ReasonCell({ reason }: { reason: string | null | undefined }) {
  return (
    <td className="cell-reason">
      {reason ? (
        <>
          <span className="reason-text">{describeReason(reason)}</span>
          <code className="reason-code">{reason}</code>
        </>
      ) : (
        <span className="muted">—</span>
      )}
    </td>
  );
}
