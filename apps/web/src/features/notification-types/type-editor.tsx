import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { UnsavedChangesPrompt } from "../../components/ui/unsaved-changes-prompt.tsx";
import { channelLabel } from "../../lib/channels.ts";
import { getErrorMessage, getFieldErrors } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { StepEditor, type TemplateChoice } from "./step-editor.tsx";
import { blankStep, inputFromDraft, nextChannel, sameDraft, type StepDraft, type TypeDraft } from "./type-draft.ts";

/** A notification type's key and its channel steps; the server's refusals land on the field they name. */
export function TypeEditor({ start, isNew }: { start: TypeDraft; isNew: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const categories = useQuery(trpc.categories.list.queryOptions());
  const templates = useQuery(trpc.templates.list.queryOptions({ limit: 100 }));
  const [draft, setDraft] = useState(start);
  const [saved, setSaved] = useState<TypeDraft | null>(isNew ? null : start);
  const [done, setDone] = useState(false);
  const [localErrors, setLocalErrors] = useState(new Map<string, string>());
  const upsert = useMutation(
    trpc.notificationTypes.upsert.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.notificationTypes.pathKey() }) }),
  );
  const isDirty = saved === null || !sameDraft(draft, saved);
  const serverErrors = getFieldErrors(upsert.error);
  const errors = new Map([...serverErrors, ...localErrors]);
  const placed = [...errors.keys()].some((path) => path === "type" || path.startsWith("channels."));
  const unplaced = upsert.error && !placed ? getErrorMessage(upsert.error) : null;
  const published: TemplateChoice[] = (templates.data?.items ?? []).flatMap((t) => (t.currentVersion === null ? [] : [{ key: t.key, name: t.name, channels: t.channels, currentVersion: t.currentVersion }]));
  const categoryList = categories.data?.categories ?? [];

  useEffect(() => {
    if (done && !isDirty) navigate("/settings/notification-types");
  }, [done, isDirty, navigate]);

  function setSteps(steps: StepDraft[]) {
    setDraft((current) => ({ ...current, steps }));
    setLocalErrors(new Map());
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = new Map<string, string>();
    draft.steps.forEach((step, index) => {
      if (step.source === "template" && !step.template) missing.set(`channels.${index}.template`, "Choose a published template, or switch to inline content.");
      if (!step.category) missing.set(`channels.${index}.category`, "Choose a category.");
    });
    setLocalErrors(missing);
    if (missing.size > 0) return;
    upsert.mutate(inputFromDraft(draft), {
      onSuccess: () => {
        setSaved(draft);
        setDone(true);
      },
    });
  }

  const channelsError = errors.get("channels");
  const added = nextChannel(draft.steps);

  return (
    <Card title={isNew ? "New notification type" : `Notification type ${start.type}`} description="An event of this type becomes one notification per step: on that channel, in that category and lane, with that content.">
      <UnsavedChangesPrompt isDirty={isDirty && !done} message="This notification type has changes that are not saved. Save them first, or leave them behind." />
      <form className="form" onSubmit={submit} noValidate aria-label={isNew ? "New notification type" : "Edit notification type"}>
        {unplaced && (
          <Alert tone="error" title="Not saved">
            {unplaced}
          </Alert>
        )}
        {categories.isSuccess && categoryList.length === 0 && (
          <Alert tone="warning" title="No categories yet">
            Every step names a category. <Link to="/settings/categories/new">Create a category</Link> first.
          </Alert>
        )}
        <div className="form-narrow">
          <TextField
            label="Event type"
            name="type"
            autoComplete="off"
            readOnly={!isNew}
            placeholder="e.g. order.paid"
            value={draft.type}
            onChange={(event) => setDraft((current) => ({ ...current, type: event.target.value }))}
            hint={isNew ? "The `type` your backend posts to /api/v1/events. It cannot change later." : "The event type cannot change."}
            error={errors.get("type")}
          />
        </div>
        {draft.steps.map((step, index) => {
          const prefix = `channels.${index}.`;
          const stepErrors = new Map([...errors].filter(([path]) => path.startsWith(prefix)).map(([path, message]) => [path.slice(prefix.length), message]));
          return (
            <StepEditor
              key={index}
              index={index}
              step={step}
              taken={draft.steps.filter((_, other) => other !== index).map((other) => other.channel)}
              categories={categoryList}
              templates={published}
              errors={stepErrors}
              onChange={(next) => setSteps(draft.steps.map((current, other) => (other === index ? next : current)))}
              onRemove={draft.steps.length > 1 ? () => setSteps(draft.steps.filter((_, other) => other !== index)) : null}
            />
          );
        })}
        {channelsError && <p className="field-error">{channelsError}</p>}
        <div className="form-inline-buttons">
          {added && (
            <Button onClick={() => setSteps([...draft.steps, blankStep(added, draft.steps[0]?.category ?? categoryList[0]?.key ?? "")])}>
              Add {channelLabel(added)} step
            </Button>
          )}
          <Button type="submit" variant="primary" pending={upsert.isPending} disabled={!isDirty}>
            {isNew ? "Create notification type" : "Save notification type"}
          </Button>
          <Button variant="ghost" onClick={() => navigate("/settings/notification-types")}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}
