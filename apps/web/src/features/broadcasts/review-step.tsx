import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Button } from "../../components/ui/button.tsx";
import { channelLabel } from "../../lib/channels.ts";
import { useTRPC } from "../../lib/trpc.ts";
import type { ComposerDraft, Step } from "./composer-draft.ts";
import { describeSchedule } from "./describe-schedule.ts";
import { readSchedule } from "./composer-draft.ts";

/** Step 5: everything chosen, each part with a way back to its step. The dry run sits beside it. */
export function ReviewSummary({ draft, onEdit }: { draft: ComposerDraft; onEdit: (step: Step) => void }) {
  const trpc = useTRPC();
  const segment = useQuery(trpc.segments.get.queryOptions({ id: draft.segmentId }, { enabled: draft.segmentId !== "" }));
  const segmentName = segment.data?.segment.name ?? `Segment #${draft.segmentId}`;
  const holdout = Number(draft.holdoutPercent);
  const data = draft.data.filter((row) => row.key.trim());

  return (
    <dl className="review-list">
      <Row label="Audience" step="audience" onEdit={onEdit}>
        <span className="cell-strong">{segmentName}</span>
        <span className="muted">{holdout > 0 ? `${holdout} % held out to measure lift` : "No holdout"}</span>
      </Row>
      <Row label="Content" step="content" onEdit={onEdit}>
        <code className="code">{draft.templateKey}</code>
        <span>
          {draft.variants.length === 1
            ? `v${draft.variants[0]!.version} to everyone`
            : draft.variants.map((v, index) => `${String.fromCharCode(65 + index)}: v${v.version} (${v.percent} %)`).join(" · ")}
        </span>
        {data.length > 0 && <span className="muted">{data.map((row) => `data.${row.key.trim()} = “${row.value}”`).join(", ")}</span>}
      </Row>
      <Row label="Channels" step="channels" onEdit={onEdit}>
        <span>{draft.channels.map(channelLabel).join(", ")}</span>
        <span className="muted">
          {`Category ${draft.category} · ${draft.lane === "bulk" ? "bulk lane" : "critical lane"}`}
          {draft.isThrottled && ` · at most ${draft.throttlePerMinute} per minute`}
        </span>
      </Row>
      <Row label="Schedule" step="schedule" onEdit={onEdit}>
        <span>{describeSchedule(readSchedule(draft))}</span>
      </Row>
    </dl>
  );
}

function Row({ label, step, onEdit, children }: { label: string; step: Step; onEdit: (step: Step) => void; children: ReactNode }) {
  return (
    <div className="review-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
      <dd className="review-edit">
        <Button size="sm" variant="ghost" onClick={() => onEdit(step)} aria-label={`Edit ${label.toLowerCase()}`}>
          Edit
        </Button>
      </dd>
    </div>
  );
}
