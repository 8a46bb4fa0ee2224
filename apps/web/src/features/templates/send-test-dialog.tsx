import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { SelectField, TextField } from "../../components/ui/field.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { channelLabel } from "../../lib/channels.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { localeName } from "./locale-tag.ts";
import { ModalDialog } from "../../components/ui/modal-dialog.tsx";
import type { TemplateChannel } from "./template-types.ts";
import { TestDestination } from "./test-destination.tsx";
import { TestSendAnswer } from "./test-send-answer.tsx";
import { versionLabel } from "./version-label.ts";

type SendTestProps = {
  templateKey: string;
  version: number | "draft";
  channels: TemplateChannel[];
  locales: string[];
  initialChannel: TemplateChannel;
  initialLocale: string;
  onClose: () => void;
};

/** Sends one rendered message of a version to the signed-in member, and shows the provider's answer. */
export function SendTestDialog({ open, ...props }: SendTestProps & { open: boolean }) {
  return (
    <ModalDialog
      open={open}
      title={`Send a test of ${props.version === "draft" ? "the draft" : versionLabel(props.version)}`}
      description="One message, rendered as a real send would be, goes to you alone. Its subject says it is a test."
      onClose={props.onClose}
    >
      <SendTestForm {...props} />
    </ModalDialog>
  );
}

function SendTestForm({ templateKey, version, channels, locales, initialChannel, initialLocale, onClose }: SendTestProps) {
  const trpc = useTRPC();
  const destinations = useQuery(trpc.templates.testDestinations.queryOptions());
  const sendTest = useMutation(trpc.templates.sendTest.mutationOptions());
  const [channel, setChannel] = useState(initialChannel);
  const [locale, setLocale] = useState(initialLocale);
  const [userId, setUserId] = useState("");
  const needsAddress =
    destinations.data !== undefined &&
    ((channel === "sms" && !destinations.data.phone) || (channel === "push" && !destinations.data.pushToken));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const id = userId.trim();
    sendTest.mutate({
      key: templateKey,
      version,
      channel,
      locale,
      source: id ? { kind: "user", userId: id } : { kind: "examples" },
    });
  }

  return (
    <>
      <div className="template-form-row">
        <SelectField
          label="Channel"
          value={channel}
          onChange={(event) => {
            setChannel(channels.find((candidate) => candidate === event.target.value) ?? channel);
            sendTest.reset();
          }}
        >
          {channels.map((candidate) => (
            <option key={candidate} value={candidate}>
              {channelLabel(candidate)}
            </option>
          ))}
        </SelectField>
        <SelectField label="Locale" value={locale} onChange={(event) => setLocale(event.target.value)}>
          {locales.map((candidate) => (
            <option key={candidate} value={candidate}>
              {`${localeName(candidate)} (${candidate})`}
            </option>
          ))}
        </SelectField>
      </div>
      {destinations.isPending ? (
        <Skeleton width="70%" />
      ) : destinations.isError ? (
        <ErrorState
          error={destinations.error}
          title="Could not load where tests go"
          onRetry={() => destinations.refetch()}
          retrying={destinations.isFetching}
        />
      ) : (
        <TestDestination channel={channel} destinations={destinations.data} />
      )}
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          label="User id"
          autoComplete="off"
          spellCheck={false}
          placeholder="None: use the examples"
          hint="Optional. A real user's profile fills user.*; data.* always comes from the examples."
          value={userId}
          onChange={(event) => setUserId(event.target.value)}
        />
        {sendTest.error && <Alert tone="error">{getErrorMessage(sendTest.error)}</Alert>}
        {sendTest.data && <TestSendAnswer result={sendTest.data} />}
        <div className="dialog-actions">
          <Button onClick={onClose}>Close</Button>
          <Button type="submit" variant="primary" pending={sendTest.isPending} disabled={needsAddress}>
            {`Send test ${channelLabel(channel)}`}
          </Button>
        </div>
      </form>
    </>
  );
}
