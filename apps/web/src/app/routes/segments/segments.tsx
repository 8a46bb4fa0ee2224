import "../../../features/segments/segments.css";
import { Link } from "react-router";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { useMember } from "../../../features/auth/use-session.ts";
import { SegmentsList } from "../../../features/segments/segments-list.tsx";
import { RequireCapability } from "../../require-capability.tsx";

export function SegmentsRoute() {
  const canEdit = useMember().can("segments.edit");
  return (
    <>
      <PageHeader
        title="Segments"
        description="Group users by what they did and what you know about them, to target broadcasts and see who they would reach."
        actions={
          canEdit && (
            <Link className="btn btn-primary" to="/segments/new">
              New segment
            </Link>
          )
        }
      />
      <RequireCapability anyOf={["segments.read"]}>
        <SegmentsList canEdit={canEdit} />
      </RequireCapability>
    </>
  );
}
