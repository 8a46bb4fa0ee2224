import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { SelectField, TextField } from "../../components/ui/field.tsx";
import type { ApiKeyScope } from "../../lib/api-types.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { apiKeyScopeGrants, apiKeyScopeLabel, apiKeyScopes, parseApiKeyScope } from "./api-key-scopes.ts";
import { NewApiKey } from "./new-api-key.tsx";
import { useInvalidateApiKeys } from "./use-invalidate-api-keys.ts";

// The narrowest scope: a key created in a hurry can post events and nothing more.
const defaultScope: ApiKeyScope = "events";
const maxRatePerMinute = 1_000_000;

type Errors = { name?: string; rate?: string };

export function CreateApiKeyForm() {
  const trpc = useTRPC();
  const invalidateApiKeys = useInvalidateApiKeys();
  const create = useMutation(trpc.apiKeys.create.mutationOptions({ onSuccess: invalidateApiKeys }));
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiKeyScope>(defaultScope);
  const [rate, setRate] = useState("");
  const [errors, setErrors] = useState<Errors>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Errors = {};
    if (!name.trim()) found.name = "Name the key after what will use it, e.g. “Checkout service”.";
    const ratePerMinute = rate.trim() === "" ? null : Number(rate);
    if (ratePerMinute !== null && !(Number.isInteger(ratePerMinute) && ratePerMinute >= 1 && ratePerMinute <= maxRatePerMinute)) {
      found.rate = `Enter a whole number from 1 to ${maxRatePerMinute.toLocaleString()}, or leave it empty.`;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(
      { name: name.trim(), scope, ratePerMinute },
      {
        onSuccess: () => {
          setName("");
          setRate("");
          setScope(defaultScope);
        },
      },
    );
  }

  return (
    <div className="stack">
      <form className="form form-narrow" onSubmit={submit} noValidate>
        <TextField
          label="Name"
          name="name"
          autoComplete="off"
          placeholder="e.g. Checkout service"
          maxLength={200}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setErrors((current) => ({ ...current, name: undefined }));
          }}
          error={errors.name}
        />
        <SelectField
          label="Scope"
          name="scope"
          value={scope}
          onChange={(event) => setScope(parseApiKeyScope(event.target.value) ?? defaultScope)}
          hint={
            <>
              {apiKeyScopeLabel(scope)} keys may {apiKeyScopeGrants(scope)}. Scopes nest: events ⊂ read ⊂ admin.
            </>
          }
        >
          {apiKeyScopes.map((candidate) => (
            <option key={candidate} value={candidate}>
              {apiKeyScopeLabel(candidate)}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Requests per minute"
          name="rate-per-minute"
          type="number"
          inputMode="numeric"
          min={1}
          max={maxRatePerMinute}
          step={1}
          placeholder="No limit"
          value={rate}
          onChange={(event) => {
            setRate(event.target.value);
            setErrors((current) => ({ ...current, rate: undefined }));
          }}
          hint="Optional. Requests over this limit are answered 429 with Retry-After."
          error={errors.rate}
        />
        <div>
          <Button type="submit" variant="primary" pending={create.isPending}>
            Create API key
          </Button>
        </div>
      </form>
      {create.error && <Alert tone="error">{getErrorMessage(create.error)}</Alert>}
      {create.data && <NewApiKey name={create.data.apiKey.name} secret={create.data.key} />}
    </div>
  );
}
