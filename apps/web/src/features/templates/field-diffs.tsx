import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import { classNames } from "../../lib/class-names.ts";
import { sideBySide } from "./diff-rows.ts";
import type { DiffLine, FieldDiff } from "./template-types.ts";

const changes: Record<FieldDiff["change"], { tone: BadgeTone; label: string }> = {
  added: { tone: "success", label: "Added" },
  removed: { tone: "danger", label: "Removed" },
  changed: { tone: "info", label: "Changed" },
};

/** Each changed field as two columns: the old text on the left, the new on the right. */
export function FieldDiffs({ fields, fromLabel, toLabel }: { fields: FieldDiff[]; fromLabel: string; toLabel: string }) {
  return (
    <div className="template-diffs">
      {fields.map((field) => (
        <section className="template-diff" key={field.field} aria-label={`Changes to ${field.field}`}>
          <header className="template-diff-header">
            <code className="template-diff-field">{field.field}</code>
            <Badge tone={changes[field.change].tone}>{changes[field.change].label}</Badge>
          </header>
          <div className="table-wrap">
            <table className="template-diff-table">
              <colgroup>
                <col className="template-diff-number" />
                <col />
                <col className="template-diff-number" />
                <col />
              </colgroup>
              <thead className="visually-hidden">
                <tr>
                  <th scope="col">Line in {fromLabel}</th>
                  <th scope="col">{fromLabel}</th>
                  <th scope="col">Line in {toLabel}</th>
                  <th scope="col">{toLabel}</th>
                </tr>
              </thead>
              <tbody>
                {sideBySide(field.lines).map((row, index) => (
                  <tr key={index}>
                    <DiffCells line={row.left} side="left" />
                    <DiffCells line={row.right} side="right" />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </div>
  );
}

/** A line number and its text; <del> and <ins> say removed or added to assistive technology too. */
function DiffCells({ line, side }: { line: DiffLine | null; side: "left" | "right" }) {
  if (!line) {
    return (
      <>
        <td className="template-diff-number" />
        <td className="template-diff-text template-diff-blank" />
      </>
    );
  }
  const number = side === "left" ? line.leftLine : line.rightLine;
  return (
    <>
      <td className={classNames("template-diff-number", `template-diff-${line.kind}`)}>{number}</td>
      <td className={classNames("template-diff-text", `template-diff-${line.kind}`)}>
        {line.kind === "removed" ? <del>{line.text}</del> : line.kind === "added" ? <ins>{line.text}</ins> : line.text}
      </td>
    </>
  );
}
