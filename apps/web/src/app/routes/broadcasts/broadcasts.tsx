import "../../../features/broadcasts/broadcasts.css";
import { Link } from "react-router";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { useMember } from "../../../features/auth/use-session.ts";
import { BroadcastsList } from "../../../features/broadcasts/broadcasts-list.tsx";
import { RequireCapability } from "../../require-capability.tsx";

export function BroadcastsRoute() {
  const canSend = useMember().can("broadcasts.send");
  return (
    <>
      <PageHeader
        title="Broadcasts"
        description="Send one template to everyone in a segment, now or at a scheduled time, and follow its delivery."
        actions={
          canSend && (
            <Link className="btn btn-primary" to="/broadcasts/new">
              New broadcast
            </Link>
          )
        }
      />
      <RequireCapability anyOf={["broadcasts.read"]}>
        <BroadcastsList canSend={canSend} />
      </RequireCapability>
    </>
  );
}
