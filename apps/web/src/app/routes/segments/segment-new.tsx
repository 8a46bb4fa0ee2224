import "../../../features/segments/segments.css";
import { useMember } from "../../../features/auth/use-session.ts";
import { SegmentEditor, type SegmentStart } from "../../../features/segments/segment-editor.tsx";
import { RequireCapability } from "../../require-capability.tsx";

// An empty "all of" matches everyone: the count starts at the whole audience and narrows as conditions are added.
const blank: SegmentStart = { id: null, name: "", description: "", rule: { kind: "and", children: [] } };

/** /segments/new: the builder on an empty rule; saving it goes to the segment's own address. */
export function SegmentNewRoute() {
  const canEdit = useMember().can("segments.edit");
  return (
    <RequireCapability anyOf={["segments.edit"]}>
      <SegmentEditor start={blank} canEdit={canEdit} />
    </RequireCapability>
  );
}
