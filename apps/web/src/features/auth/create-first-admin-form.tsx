import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { isEmail } from "../../lib/validation.ts";
import { NewPasswordField } from "./new-password-field.tsx";
import { minPasswordLength } from "./password-strength.ts";
import { useSessionTransitions } from "./use-session-transitions.ts";

type Errors = { name?: string; email?: string; password?: string; confirm?: string };

export function CreateFirstAdminForm({ onCreated }: { onCreated: () => void }) {
  const trpc = useTRPC();
  const { startSession } = useSessionTransitions();
  const createAdmin = useMutation(
    trpc.setup.createFirstAdmin.mutationOptions({ onSuccess: () => startSession() }),
  );
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  // An error describes the value that was submitted; once that value changes it no longer applies.
  const clearError = (field: keyof Errors) => setErrors((current) => ({ ...current, [field]: undefined }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Errors = {};
    if (!name.trim()) found.name = "Enter your name.";
    if (!isEmail(email)) found.email = "Enter a valid email address.";
    if (password.length < minPasswordLength) found.password = `Use at least ${minPasswordLength} characters.`;
    if (confirm !== password) found.confirm = "The passwords do not match.";
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    createAdmin.mutate({ name: name.trim(), email: email.trim(), password }, { onSuccess: onCreated });
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
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          clearError("email");
        }}
        error={errors.email}
      />
      <NewPasswordField
        value={password}
        onChange={(value) => {
          setPassword(value);
          clearError("password");
        }}
        error={errors.password}
      />
      <TextField
        label="Confirm password"
        type="password"
        name="confirm-password"
        autoComplete="new-password"
        value={confirm}
        onChange={(event) => {
          setConfirm(event.target.value);
          clearError("confirm");
        }}
        error={errors.confirm}
      />
      {createAdmin.error && <Alert tone="error">{getErrorMessage(createAdmin.error)}</Alert>}
      <Button type="submit" variant="primary" className="btn-block" pending={createAdmin.isPending}>
        Create admin
      </Button>
    </form>
  );
}
