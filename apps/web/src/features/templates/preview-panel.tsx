import { useId } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Card } from "../../components/ui/card.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { channelLabel } from "../../lib/channels.ts";
import { getErrorMessage, hasErrorCode } from "../../lib/trpc-error.ts";
import { EmailPreview } from "./email-preview.tsx";
import { localeName } from "./locale-tag.ts";
import { PushPreview } from "./push-preview.tsx";
import { refusalProblems } from "./shown-problem.ts";
import { SmsPreview } from "./sms-preview.tsx";
import type { ShownPreview } from "./use-live-preview.ts";

/** Where the preview's values come from, as the toggle edits it: a user id may be half typed. */
export type SourceChoice = { kind: "examples" } | { kind: "user"; userId: string };

/** The live preview beside the editor: where its values come from, and the rendered message. */
export function PreviewPanel({
  shown,
  error,
  isUpdating,
  choice,
  onChoiceChange,
}: {
  shown: ShownPreview | null;
  error: unknown;
  isUpdating: boolean;
  choice: SourceChoice;
  onChoiceChange: (choice: SourceChoice) => void;
}) {
  const sourceName = useId();

  return (
    <Card
      title="Preview"
      description={shown ? `${channelLabel(shown.channel)} in ${localeName(shown.locale)} (${shown.locale})` : "Renders as you type."}
      actions={isUpdating && <Spinner size="sm" label="Updating the preview" />}
      className="template-preview"
    >
      <div className="template-preview-body">
        <fieldset className="template-fieldset">
          <legend className="field-label">Values from</legend>
          <div className="template-segmented">
            <label className="checkbox">
              <input
                type="radio"
                name={sourceName}
                checked={choice.kind === "examples"}
                onChange={() => onChoiceChange({ kind: "examples" })}
              />
              Example data
            </label>
            <label className="checkbox">
              <input
                type="radio"
                name={sourceName}
                checked={choice.kind === "user"}
                onChange={() => onChoiceChange({ kind: "user", userId: "" })}
              />
              A real user
            </label>
          </div>
        </fieldset>
        {choice.kind === "user" && (
          <TextField
            label="User id"
            autoComplete="off"
            spellCheck={false}
            placeholder="e.g. u-42"
            hint="Fills user.* from their profile; data.* still comes from the examples."
            value={choice.userId}
            onChange={(event) => onChoiceChange({ kind: "user", userId: event.target.value })}
            error={hasErrorCode(error, "NOT_FOUND") ? getErrorMessage(error) : null}
          />
        )}
        {error != null && !hasErrorCode(error, "NOT_FOUND") && (
          <Alert tone="error" title="Could not render the preview">
            {refusalProblems(error) ? "Fix the problems listed under the editor first." : getErrorMessage(error)}
          </Alert>
        )}
        {choice.kind === "user" && !choice.userId.trim() ? (
          <p className="template-empty-note">Enter a user id to preview with their profile.</p>
        ) : shown ? (
          <PreviewResult shown={shown} />
        ) : (
          // Before the first answer; a first render that failed has said why above instead.
          error == null && (
            <div className="template-preview-loading" role="status">
              <span className="visually-hidden">Rendering the preview</span>
              <Skeleton width="60%" />
              <Skeleton width="90%" />
              <Skeleton width="75%" className="skeleton-input" />
            </div>
          )
        )}
      </div>
    </Card>
  );
}

function PreviewResult({ shown }: { shown: ShownPreview }) {
  const { result } = shown.answer;
  if (!result.ok) {
    return (
      <Alert tone="warning" title="This cannot render yet">
        {result.problem.message}
      </Alert>
    );
  }
  const { rendered } = result;
  return (
    <>
      {result.locale !== shown.locale && (
        <Alert tone="info">
          {`No ${channelLabel(shown.channel)} copy in ${shown.locale}: users with this locale get the ${localeName(result.locale)} (${result.locale}) copy.`}
        </Alert>
      )}
      {"html" in rendered ? (
        <EmailPreview email={rendered} />
      ) : "payloadBytes" in rendered ? (
        <PushPreview push={rendered} />
      ) : (
        <SmsPreview sms={rendered} />
      )}
    </>
  );
}
