import { RoleBadge } from "../../components/ui/role-badge.tsx";
import type { Invite, Member } from "../../lib/api-types.ts";
import { formatDateTime, formatRelative } from "../../lib/format-date.ts";
import { RevokeInviteButton } from "./revoke-invite-button.tsx";

export function PendingInvitesTable({ invites, members }: { invites: Invite[]; members: Member[] }) {
  // Invites name their inviter by member id; show the person instead.
  const names = new Map(members.map((member) => [member.id, member.name]));
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Invited by</th>
            <th scope="col">Sent</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invites.map((invite) => (
            <tr key={invite.id}>
              <td className="cell-strong">{invite.email}</td>
              <td>
                <RoleBadge role={invite.role} />
              </td>
              <td>{(invite.invitedBy && names.get(invite.invitedBy)) ?? <span className="muted">Unknown</span>}</td>
              <td>
                <time dateTime={invite.createdAt} title={formatDateTime(invite.createdAt)}>
                  {formatRelative(invite.createdAt)}
                </time>
              </td>
              <td>
                <time dateTime={invite.expiresAt} title={formatDateTime(invite.expiresAt)}>
                  {formatRelative(invite.expiresAt)}
                </time>
              </td>
              <td className="cell-actions">
                <RevokeInviteButton invite={invite} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
