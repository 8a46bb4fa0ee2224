import { Card } from "../../../components/ui/card.tsx";
import { useMember } from "../../../features/auth/use-session.ts";
import { InviteMemberForm } from "../../../features/members/invite-member-form.tsx";
import { MembersCard } from "../../../features/members/members-card.tsx";
import { PendingInvitesCard } from "../../../features/members/pending-invites-card.tsx";
import { RequireCapability } from "../../require-capability.tsx";

export function MembersRoute() {
  const { member } = useMember();
  return (
    <RequireCapability anyOf={["members.manage"]}>
      <MembersCard currentMemberId={member.id} />
      <Card
        title="Invite a member"
        description="Creates a one-time sign-up link for this address. Copy it and send it to them."
      >
        <InviteMemberForm />
      </Card>
      <PendingInvitesCard />
    </RequireCapability>
  );
}
