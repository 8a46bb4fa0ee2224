import { Badge } from "../../components/ui/badge.tsx";
import { RoleBadge } from "../../components/ui/role-badge.tsx";
import type { Member } from "../../lib/api-types.ts";
import { formatDateTime, formatRelative } from "../../lib/format-date.ts";
import { MemberRoleSelect } from "./member-role-select.tsx";
import { MemberStatusButton } from "./member-status-button.tsx";

/**
 * Your own row is read-only: demoting or disabling yourself is how an instance loses its last
 * admin, and the server would have to refuse it anyway.
 */
export function MembersTable({ members, currentMemberId }: { members: Member[]; currentMemberId: string }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
            <th scope="col">Last sign-in</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.map((member) => {
            const isSelf = member.id === currentMemberId;
            return (
              <tr key={member.id}>
                <td>
                  <span className="cell-strong">{member.name}</span>
                  {isSelf && <span className="cell-note"> (you)</span>}
                </td>
                <td>{member.email}</td>
                <td>{isSelf ? <RoleBadge role={member.role} /> : <MemberRoleSelect member={member} />}</td>
                <td>
                  {member.disabled ? <Badge tone="danger">Disabled</Badge> : <Badge tone="success">Active</Badge>}
                </td>
                <td>
                  {member.lastSignInAt ? (
                    <time dateTime={member.lastSignInAt} title={formatDateTime(member.lastSignInAt)}>
                      {formatRelative(member.lastSignInAt)}
                    </time>
                  ) : (
                    <span className="muted">Never</span>
                  )}
                </td>
                <td className="cell-actions">{!isSelf && <MemberStatusButton member={member} />}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
