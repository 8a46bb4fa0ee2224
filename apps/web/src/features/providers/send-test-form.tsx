import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { SelectField, TextField } from "../../components/ui/field.tsx";
import { channelLabel, type Channel } from "../../lib/channels.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { isEmail } from "../../lib/validation.ts";
import type { ProviderRole } from "./provider-types.ts";
import { SendTestAnswer } from "./send-test-answer.tsx";
import { useInvalidateProviders } from "./use-invalidate-providers.ts";

/** A provider a test can go through, named as the member knows it ("Amazon SES", "Sandbox"). */
export type TestTarget = { role: ProviderRole; label: string };

const recipients: Record<Channel, { hint: string; placeholder: string; inputMode: "email" | "tel" | "text" }> = {
  email: { hint: "An email address.", placeholder: "you@example.com", inputMode: "email" },
  sms: { hint: "A phone number in E.164 form: + and the country code.", placeholder: "+15005550006", inputMode: "tel" },
  push: { hint: "A device token, as the app registered it.", placeholder: "Device token", inputMode: "text" },
};

/** Sends one message through a channel's provider and shows what the provider answered. */
export function SendTestForm({ channel, targets, onClose }: { channel: Channel; targets: TestTarget[]; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidateProviders = useInvalidateProviders();
  // The list refetches afterwards: a failed test moves the provider's breaker like any other send.
  const sendTest = useMutation(trpc.providers.sendTest.mutationOptions({ onSettled: invalidateProviders }));
  const [role, setRole] = useState<ProviderRole>("primary");
  const [to, setTo] = useState("");
  const [toError, setToError] = useState<string | null>(null);
  const titleId = useId();
  const recipient = recipients[channel];
  const name = channelLabel(channel);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const error = checkRecipient(channel, to.trim());
    setToError(error);
    if (error) return;
    sendTest.mutate({ channel, role, to: to.trim() });
  }

  return (
    <form className="provider-panel" aria-labelledby={titleId} onSubmit={submit} noValidate>
      <div>
        <h3 className="provider-panel-title" id={titleId}>{`Send a test ${name} message`}</h3>
        <p className="field-hint">
          One message goes out as a real notification would, and the provider's answer is shown here. It is recorded in the
          audit log.
        </p>
      </div>
      <div className="form-inline">
        {targets.length > 1 && (
          <SelectField
            label="Through"
            name="role"
            value={role}
            onChange={(event) => setRole(targets.find((target) => target.role === event.target.value)?.role ?? "primary")}
          >
            {targets.map((target) => (
              <option key={target.role} value={target.role}>
                {`${target.role === "primary" ? "Primary" : "Secondary"}: ${target.label}`}
              </option>
            ))}
          </SelectField>
        )}
        <TextField
          label="To"
          name="to"
          className="grow"
          autoComplete="off"
          spellCheck={false}
          // Opening the form from the card's button lands where the member types.
          autoFocus
          inputMode={recipient.inputMode}
          placeholder={recipient.placeholder}
          hint={recipient.hint}
          value={to}
          onChange={(event) => {
            setTo(event.target.value);
            setToError(null);
          }}
          error={toError}
        />
        <div className="form-inline-buttons">
          <Button type="submit" variant="primary" pending={sendTest.isPending}>
            Send test
            <span className="visually-hidden"> {name} message</span>
          </Button>
          <Button onClick={onClose}>Close</Button>
        </div>
      </div>
      {sendTest.error && <Alert tone="error">{getErrorMessage(sendTest.error)}</Alert>}
      {sendTest.data && <SendTestAnswer result={sendTest.data} />}
    </form>
  );
}

function checkRecipient(channel: Channel, to: string): string | null {
  switch (channel) {
    case "email":
      return isEmail(to) ? null : "Enter the email address to send the test to.";
    case "sms":
      return /^\+[1-9]\d{6,14}$/.test(to) ? null : "Enter the number in E.164 form: + then 7 to 15 digits, e.g. +15005550006.";
    case "push":
      return to.length >= 3 ? null : "Enter the device token to send the test to.";
  }
}
