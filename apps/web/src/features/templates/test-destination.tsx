import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import type { TemplateChannel, TestDestinations } from "./template-types.ts";

const phonePattern = /^\+[1-9]\d{6,14}$/;

/**
 * Where a test on `channel` goes: always the member's own address. Email is their sign-in
 * address; the phone and push token they set here, for their own tests only.
 */
export function TestDestination({ channel, destinations }: { channel: TemplateChannel; destinations: TestDestinations }) {
  const [editing, setEditing] = useState(false);
  if (channel === "email") {
    return (
      <p className="template-destination">
        To <strong>{destinations.email}</strong> <span className="muted">(your sign-in email)</span>
      </p>
    );
  }
  const current = channel === "sms" ? destinations.phone : destinations.pushToken;
  if (current && !editing) {
    return (
      <p className="template-destination">
        To <code className="code code-clamp">{current}</code>
        <span className="muted">{channel === "sms" ? " (your test phone)" : " (your test device)"}</span>
        <Button size="sm" variant="ghost" onClick={() => setEditing(true)}>
          Change
          <span className="visually-hidden">{channel === "sms" ? " test phone" : " test push token"}</span>
        </Button>
      </p>
    );
  }
  return <DestinationForm channel={channel} destinations={destinations} onDone={() => setEditing(false)} canCancel={current !== null} />;
}

function DestinationForm({
  channel,
  destinations,
  canCancel,
  onDone,
}: {
  channel: "sms" | "push";
  destinations: TestDestinations;
  canCancel: boolean;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const save = useMutation(
    trpc.templates.setTestDestinations.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.templates.testDestinations.queryKey() }),
    }),
  );
  const [value, setValue] = useState((channel === "sms" ? destinations.phone : destinations.pushToken) ?? "");
  const [error, setError] = useState<string | null>(null);
  const isSms = channel === "sms";

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = value.trim();
    if (isSms && !phonePattern.test(text)) {
      setError("Enter the number in E.164 form: + then 7 to 15 digits, e.g. +15005550006.");
      return;
    }
    if (!isSms && (text === "" || /\s/.test(text))) {
      setError("Paste the device token your app registered, without spaces.");
      return;
    }
    setError(null);
    save.mutate(
      isSms ? { phone: text, pushToken: destinations.pushToken } : { phone: destinations.phone, pushToken: text },
      { onSuccess: onDone },
    );
  }

  return (
    // A form inside the dialog's own form would be invalid HTML: this one is a sibling of it.
    <form className="form-inline" onSubmit={submit} noValidate>
      <TextField
        label={isSms ? "Your test phone" : "Your test push token"}
        className="grow"
        autoComplete="off"
        spellCheck={false}
        inputMode={isSms ? "tel" : "text"}
        placeholder={isSms ? "+15005550006" : "Device token"}
        hint={isSms ? "Tests go to this number only. It is kept for your next tests." : "Tests go to this device only. It is kept for your next tests."}
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          setError(null);
        }}
        error={error ?? (save.error ? getErrorMessage(save.error) : null)}
      />
      <div className="form-inline-buttons">
        <Button type="submit" pending={save.isPending}>
          {isSms ? "Save phone" : "Save token"}
        </Button>
        {canCancel && (
          <Button variant="ghost" onClick={onDone}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
