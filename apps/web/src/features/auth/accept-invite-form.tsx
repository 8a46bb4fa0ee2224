import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { NewPasswordField } from "./new-password-field.tsx";
import { minPasswordLength } from "./password-strength.ts";
import { useSessionTransitions } from "./use-session-transitions.ts";

type Errors = { name?: string; password?: string };

export function AcceptInviteForm({ token, onAccepted }: { token: string; onAccepted: () => void }) {
  const trpc = useTRPC();
  const { startSession } = useSessionTransitions();
  const accept = useMutation(trpc.auth.acceptInvite.mutationOptions({ onSuccess: () => startSession() }));
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  // An error describes the value that was submitted; once that value changes it no longer applies.
  const clearError = (field: keyof Errors) => setErrors((current) => ({ ...current, [field]: undefined }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Errors = {};
    if (!name.trim()) found.name = "Enter your name.";
    if (password.length < minPasswordLength) found.password = `Use at least ${minPasswordLength} characters.`;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    accept.mutate({ token, name: name.trim(), password }, { onSuccess: onAccepted });
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <TextField
        label="Name"
        name="name"
        autoComplete="name"
        autoFocus
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          clearError("name");
        }}
        error={errors.name}
      />
      <NewPasswordField
        value={password}
        onChange={(value) => {
          setPassword(value);
          clearError("password");
        }}
        error={errors.password}
      />
      {accept.error && <Alert tone="error">{getErrorMessage(accept.error)}</Alert>}
      <Button type="submit" variant="primary" className="btn-block" pending={accept.isPending}>
        Accept invite
      </Button>
    </form>
  );
}
