import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { SelectField, TextField } from "../../components/ui/field.tsx";
import type { Role } from "../../lib/api-types.ts";
import { roleLabel, roles } from "../../lib/roles.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { isEmail } from "../../lib/validation.ts";
import { InviteLink } from "./invite-link.tsx";
import { useInvalidateMembers } from "./use-invalidate-members.ts";

// The least privileged role: an admin who forgets to pick one grants nothing by accident.
const defaultRole: Role = "viewer";

export function InviteMemberForm() {
  const trpc = useTRPC();
  const invalidateMembers = useInvalidateMembers();
  const invite = useMutation(trpc.members.invite.mutationOptions({ onSuccess: invalidateMembers }));
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>(defaultRole);
  const [emailError, setEmailError] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!isEmail(email)) {
      setEmailError("Enter the email address of the person to invite.");
      return;
    }
    setEmailError(null);
    invite.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail("") });
  }

  return (
    <div className="stack">
      <form className="form-inline" onSubmit={submit} noValidate>
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="off"
          className="grow"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={emailError}
        />
        <SelectField
          label="Role"
          name="role"
          value={role}
          onChange={(event) => setRole(roles.find((candidate) => candidate === event.target.value) ?? defaultRole)}
        >
          {roles.map((candidate) => (
            <option key={candidate} value={candidate}>
              {roleLabel(candidate)}
            </option>
          ))}
        </SelectField>
        <Button type="submit" variant="primary" className="form-inline-submit" pending={invite.isPending}>
          Invite member
        </Button>
      </form>
      {invite.error && <Alert tone="error">{getErrorMessage(invite.error)}</Alert>}
      {invite.data && (
        <InviteLink url={invite.data.url} email={invite.data.invite.email} expiresAt={invite.data.invite.expiresAt} />
      )}
    </div>
  );
}
