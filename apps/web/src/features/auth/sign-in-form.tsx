import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { isEmail } from "../../lib/validation.ts";
import { useSessionTransitions } from "./use-session-transitions.ts";

type Errors = { email?: string; password?: string };

export function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const trpc = useTRPC();
  const { startSession } = useSessionTransitions();
  // startSession runs inside the mutation so the button stays pending until the session is loaded.
  const signIn = useMutation(trpc.auth.signIn.mutationOptions({ onSuccess: () => startSession() }));
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  // An error describes the value that was submitted; once that value changes it no longer applies.
  const clearError = (field: keyof Errors) => setErrors((current) => ({ ...current, [field]: undefined }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Errors = {};
    if (!isEmail(email)) found.email = "Enter your email address.";
    if (!password) found.password = "Enter your password.";
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    signIn.mutate({ email: email.trim(), password }, { onSuccess: onSignedIn });
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="username"
        autoFocus
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          clearError("email");
        }}
        error={errors.email}
      />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
          clearError("password");
        }}
        error={errors.password}
      />
      {signIn.error && <Alert tone="error">{getErrorMessage(signIn.error)}</Alert>}
      <Button type="submit" variant="primary" className="btn-block" pending={signIn.isPending}>
        Sign in
      </Button>
    </form>
  );
}
