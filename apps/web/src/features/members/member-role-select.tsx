import { useMutation } from "@tanstack/react-query";
import type { Member } from "../../lib/api-types.ts";
import { roleLabel, roles } from "../../lib/roles.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useInvalidateMembers } from "./use-invalidate-members.ts";

/** Changes a member's role as soon as another one is picked; the server refuses what it must. */
export function MemberRoleSelect({ member }: { member: Member }) {
  const trpc = useTRPC();
  const invalidateMembers = useInvalidateMembers();
  const setRole = useMutation(trpc.members.setRole.mutationOptions({ onSuccess: invalidateMembers }));
  // Show the picked role while saving rather than snapping back to the old one.
  const value = setRole.isPending ? setRole.variables.role : member.role;

  return (
    <div className="cell-control">
      <select
        className="input select input-sm"
        // Not "Role …": the invite form's picker owns the "Role" label on this page.
        aria-label={`Access level for ${member.name}`}
        value={value}
        disabled={setRole.isPending}
        onChange={(event) => {
          const role = roles.find((candidate) => candidate === event.target.value);
          if (role && role !== member.role) setRole.mutate({ memberId: member.id, role });
        }}
      >
        {roles.map((role) => (
          <option key={role} value={role}>
            {roleLabel(role)}
          </option>
        ))}
      </select>
      {setRole.error && (
        <p className="field-error" role="alert">
          {getErrorMessage(setRole.error)}
        </p>
      )}
    </div>
  );
}
