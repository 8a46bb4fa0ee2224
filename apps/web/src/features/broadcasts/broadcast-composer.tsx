import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { Link, useNavigate } from "react-router";
import { Alert } from "../../components/ui/alert.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { PageHeader } from "../../components/ui/page-header.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { AudienceStep } from "./audience-step.tsx";
import type { Broadcast } from "./broadcast-types.ts";
import { ChannelsStep } from "./channels-step.tsx";
import {
  blankDraft,
  draftFromBroadcast,
  firstIncompleteStep,
  readBroadcast,
  scheduleChoiceOf,
  STEPS,
  stepErrors,
  type ComposerDraft,
  type ScheduleChoice,
  type Step,
} from "./composer-draft.ts";
import { ContentStep } from "./content-step.tsx";
import { DeleteDraftButton } from "./delete-draft-button.tsx";
import { DryRunCard } from "./dry-run-card.tsx";
import { ReviewSummary } from "./review-step.tsx";
import { ScheduleStep } from "./schedule-step.tsx";
import { SendButton } from "./send-button.tsx";
import { UnsavedChangesPrompt } from "../../components/ui/unsaved-changes-prompt.tsx";
import { StepNav } from "./step-nav.tsx";

/**
 * How a new draft's composer hands over to its saved address: the step it was going to, and the
 * schedule chosen so far, which is not saved with the draft.
 */
export type ComposerLocationState = { step?: Step; schedule?: ScheduleChoice } | null;

/**
 * A broadcast in five steps: audience → content and variants → channels and category → schedule →
 * review with the dry run, ending in Schedule or Send now. The draft is saved on the way to the
 * review, since the dry run and scheduling work on a saved broadcast.
 */
export function BroadcastComposer({
  broadcast,
  initialStep,
  initialSchedule,
}: {
  broadcast: Broadcast | null;
  initialStep: Step;
  initialSchedule?: ScheduleChoice | undefined;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<ComposerDraft>(() => ({ ...(broadcast ? draftFromBroadcast(broadcast) : blankDraft()), ...initialSchedule }));
  const [step, setShownStep] = useState<Step>(initialStep);
  // Steps the member has seen: only those are ticked as complete, never one still ahead.
  const [visited, setVisited] = useState<ReadonlySet<Step>>(() => new Set(broadcast ? STEPS.map((s) => s.key) : [initialStep]));
  const setStep = (next: Step) => {
    setShownStep(next);
    setVisited((current) => new Set([...current, next]));
  };
  // Steps whose errors are shown: one the member tried to leave with Continue, or everything on Save.
  const [checked, setChecked] = useState<ReadonlySet<Step>>(() => new Set(broadcast ? STEPS.map((s) => s.key) : []));
  const [savedJson, setSavedJson] = useState<string | null>(() => (broadcast ? JSON.stringify(readBroadcast(draftFromBroadcast(broadcast))) : null));
  const [createdId, setCreatedId] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);

  const inputJson = useMemo(() => JSON.stringify(readBroadcast(draft)), [draft]);
  const blankJson = useMemo(() => JSON.stringify(readBroadcast(blankDraft())), []);
  const isDirty = savedJson === null ? inputJson !== blankJson : inputJson !== savedJson;

  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.broadcasts.pathKey() });
  const create = useMutation(trpc.broadcasts.create.mutationOptions({ onSuccess: invalidate }));
  const update = useMutation(trpc.broadcasts.update.mutationOptions({ onSuccess: invalidate }));
  const saving = create.isPending || update.isPending;
  const saveError = create.error ?? update.error;

  // A new draft lives at its own address once saved; navigate after the render that marks it saved.
  useEffect(() => {
    if (createdId && !isDirty) {
      navigate(`/broadcasts/${createdId}`, { replace: true, state: { step: "review", schedule: scheduleChoiceOf(draft) } satisfies ComposerLocationState });
    }
  }, [createdId, isDirty, navigate, draft]);
  useEffect(() => {
    if (leaving) navigate("/broadcasts", { replace: true });
  }, [leaving, navigate]);

  const change = (patch: Partial<ComposerDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const errorsOf = (key: Step) => (checked.has(key) ? stepErrors(key, draft) : {});
  const isComplete = (key: Step) => Object.keys(stepErrors(key, draft)).length === 0;
  const isDone = (key: Step) => visited.has(key) && isComplete(key);

  /** Saves the first three steps; `then` runs once the server has it. */
  function save(then?: () => void) {
    const incomplete = firstIncompleteStep(draft, "channels");
    if (incomplete) {
      setChecked(new Set(STEPS.map((s) => s.key)));
      setStep(incomplete);
      return;
    }
    const input = readBroadcast(draft);
    const sent = JSON.stringify(input);
    const onSuccess = () => {
      setSavedJson(sent);
      then?.();
    };
    if (broadcast) update.mutate({ id: broadcast.id, broadcast: input }, { onSuccess });
    else
      create.mutate(input, {
        onSuccess: ({ id }) => {
          setSavedJson(sent);
          setCreatedId(id);
        },
      });
  }

  function goTo(next: Step) {
    if (next !== "review") {
      setStep(next);
      return;
    }
    // The review's dry run reads the saved broadcast: save what changed first.
    if (isDirty || !broadcast) save(() => setStep("review"));
    else {
      const incomplete = firstIncompleteStep(draft, "channels");
      if (incomplete) {
        setChecked(new Set(STEPS.map((s) => s.key)));
        setStep(incomplete);
      } else setStep("review");
    }
  }

  function next() {
    const index = STEPS.findIndex((s) => s.key === step);
    setChecked((current) => new Set([...current, step]));
    if (!isComplete(step)) return;
    const following = STEPS[index + 1];
    if (following) goTo(following.key);
  }

  const index = STEPS.findIndex((s) => s.key === step);
  const current = STEPS[index]!;
  const scheduleErrors = stepErrors("schedule", draft);

  return (
    <>
      <p className="broadcast-breadcrumb">
        <Link to="/broadcasts">← Broadcasts</Link>
      </p>
      <PageHeader
        title={broadcast ? broadcast.name : "New broadcast"}
        description={
          <span className="broadcast-facts" aria-live="polite">
            <Badge>Draft</Badge>
            {isDirty ? <span className="broadcast-unsaved">Unsaved changes</span> : broadcast && <span className="muted">Saved</span>}
          </span>
        }
        actions={
          <div className="broadcast-actions">
            {broadcast && <DeleteDraftButton id={broadcast.id} name={broadcast.name} onDeleted={() => setLeaving(true)} />}
            <Button onClick={() => save()} pending={saving} disabled={!isDirty && broadcast !== null}>
              Save draft
            </Button>
          </div>
        }
      />
      <UnsavedChangesPrompt isDirty={isDirty && createdId === null && !leaving} message="This broadcast has changes that are not saved. Save the draft first, or leave them behind." />
      <StepNav current={step} complete={isDone} onSelect={goTo} />
      {saveError && (
        <Alert tone="error" title="The draft was not saved">
          {getErrorMessage(saveError)}
        </Alert>
      )}
      {step === "review" && broadcast ? (
        <div className="composer-review">
          <Card title="Review" description="Check each part; Edit goes back to its step.">
            <ReviewSummary draft={draft} onEdit={goTo} />
            {Object.keys(scheduleErrors).length > 0 && (
              <Alert tone="warning" title="Choose when it starts">
                {Object.values(scheduleErrors).join(" ")}
              </Alert>
            )}
            <div className="composer-footer">
              <Button onClick={() => setStep("schedule")}>Back</Button>
              <SendButton broadcastId={broadcast.id} name={draft.name} draft={draft} disabled={isDirty || Object.keys(scheduleErrors).length > 0} />
            </div>
          </Card>
          <DryRunCard id={broadcast.id} variants={broadcast.variants.map((v) => v.version)} />
        </div>
      ) : (
        <Card title={`${index + 1}. ${current.label}`}>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              next();
            }}
            noValidate
          >
            {step === "audience" && <AudienceStep draft={draft} errors={errorsOf("audience")} onChange={change} />}
            {step === "content" && <ContentStep draft={draft} errors={errorsOf("content")} onChange={change} />}
            {step === "channels" && <ChannelsStep draft={draft} errors={errorsOf("channels")} onChange={change} />}
            {step === "schedule" && <ScheduleStep draft={draft} errors={errorsOf("schedule")} onChange={change} />}
            <div className="composer-footer">
              {index > 0 && <Button onClick={() => setStep(STEPS[index - 1]!.key)}>Back</Button>}
              <Button type="submit" variant="primary" pending={saving && step === "schedule"}>
                {step === "schedule" ? "Continue to review" : "Continue"}
              </Button>
            </div>
          </form>
        </Card>
      )}
    </>
  );
}
