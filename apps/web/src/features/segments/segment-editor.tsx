import { describeRule, segmentReferences, type Rule } from "@herald/core/browser";
import { useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { Alert } from "../../components/ui/alert.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Field, TextField } from "../../components/ui/field.tsx";
import { PageHeader } from "../../components/ui/page-header.tsx";
import { getErrorMessage, hasErrorCode } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { DeleteSegmentButton } from "./delete-segment-button.tsx";
import { CopyFromPresetButton } from "./preset-picker.tsx";
import { PreviewPanel } from "./preview-panel.tsx";
import { RuleBuilder } from "./rule-builder.tsx";
import { ruleFromDraft } from "./read-rule-draft.ts";
import { draftFromRule, type GroupDraft } from "./rule-draft.ts";
import { refusalProblems } from "./refusal-problems.ts";
import { UnsavedChangesPrompt } from "../../components/ui/unsaved-changes-prompt.tsx";
import { useSegmentPreview } from "./use-segment-preview.ts";

/** What the editor opens with: a saved segment, or a new one (perhaps from a preset). */
export type SegmentStart = { id: string | null; name: string; description: string; rule: Rule };

type Saved = { name: string; description: string; ruleJson: string };

/** A segment's name, its rule built visually, and beside it the live count, plain words and sample. */
export function SegmentEditor({ start, canEdit }: { start: SegmentStart; canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState(start.name);
  const [description, setDescription] = useState(start.description);
  const [root, setRoot] = useState<GroupDraft>(() => draftFromRule(start.rule));
  const [saved, setSaved] = useState<Saved | null>(() =>
    start.id ? { name: start.name, description: start.description, ruleJson: JSON.stringify(ruleFromDraftOrNull(draftFromRule(start.rule))) } : null,
  );
  const [nameError, setNameError] = useState<string | null>(null);
  const [createdId, setCreatedId] = useState<string | null>(null);
  const [deleted, setDeleted] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);

  const reading = useMemo(() => ruleFromDraft(root), [root]);
  const rule = reading.ok ? reading.rule : null;
  const ruleJson = JSON.stringify(rule);
  const isDirty = canEdit && (saved === null ? true : saved.name !== name || saved.description !== description || saved.ruleJson !== ruleJson);

  const lists = useBuilderLists();
  const segmentNames = useSegmentNames(rule);
  const live = useSegmentPreview(rule);
  const words = rule ? describeRule(rule, segmentNames) : null;

  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.segments.pathKey() });
  const create = useMutation(trpc.segments.create.mutationOptions({ onSuccess: invalidate }));
  const update = useMutation(trpc.segments.update.mutationOptions({ onSuccess: invalidate }));
  const saving = create.isPending || update.isPending;
  const saveError = create.error ?? update.error;
  // What the server refused about the rule is shown on the node it names, until the rule changes.
  const { reset: resetCreate } = create;
  const { reset: resetUpdate } = update;
  useEffect(() => {
    resetCreate();
    resetUpdate();
  }, [root, resetCreate, resetUpdate]);
  const refused = refusalProblems(saveError, root) ?? refusalProblems(live.error, root);
  const problems = new Map([...(reading.ok ? [] : reading.problems), ...(refused ?? [])]);

  // Navigate once the editor has re-rendered as saved, so the unsaved-changes guard lets it go.
  useEffect(() => {
    if (createdId && !isDirty) navigate(`/segments/${createdId}`, { replace: true });
  }, [createdId, isDirty, navigate]);
  useEffect(() => {
    if (deleted) navigate("/segments", { replace: true });
  }, [deleted, navigate]);

  function save(event?: FormEvent) {
    event?.preventDefault();
    if (!canEdit || saving) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError("Name the segment as your team would say it, e.g. “Lapsed runners”.");
      nameRef.current?.focus();
      return;
    }
    if (!rule) return;
    const input = { name: trimmed, description: description.trim(), rule };
    const onSuccess = () => {
      setName(trimmed);
      setDescription(input.description);
      setSaved({ name: trimmed, description: input.description, ruleJson: JSON.stringify(rule) });
    };
    const onError = (error: unknown) => {
      if (hasErrorCode(error, "CONFLICT")) setNameError(sentence(getErrorMessage(error).replace(/^name: /, "")));
    };
    if (start.id) update.mutate({ id: start.id, ...input }, { onSuccess, onError });
    else
      create.mutate(input, {
        onSuccess: ({ id }) => {
          onSuccess();
          setCreatedId(id);
        },
        onError,
      });
  }

  function copyPreset(preset: { name: string; description: string; rule: unknown }) {
    setRoot(draftFromRule(preset.rule as Rule));
    if (!name.trim()) setName(preset.name);
    if (!description.trim()) setDescription(preset.description);
  }

  const shownError =
    saveError && !hasErrorCode(saveError, "CONFLICT")
      ? refusalProblems(saveError, root)
        ? "The server refused part of the rule: see the highlighted condition."
        : getErrorMessage(saveError)
      : null;
  const hasConditions = root.children.length > 0;

  return (
    <>
      <p className="segment-breadcrumb">
        <Link to="/segments">← Segments</Link>
      </p>
      <PageHeader
        title={start.id ? start.name : "New segment"}
        description={
          <span className="segment-status" aria-live="polite">
            {!canEdit ? (
              "Your role can read segments and see who they match."
            ) : isDirty ? (
              <Badge tone="warning">{start.id ? "Unsaved changes" : "Not saved yet"}</Badge>
            ) : (
              <Badge tone="success">Saved</Badge>
            )}
          </span>
        }
        actions={
          canEdit && (
            <div className="segment-actions">
              <CopyFromPresetButton replaces={hasConditions} onPick={copyPreset} />
              {start.id && <DeleteSegmentButton id={start.id} name={start.name} onDeleted={() => setDeleted(true)} />}
              <Button variant="primary" onClick={() => save()} pending={saving} disabled={!rule || (!isDirty && start.id !== null)}>
                Save segment
              </Button>
            </div>
          )
        }
      />
      {shownError && (
        <Alert tone="error" title="The segment was not saved">
          {shownError}
        </Alert>
      )}
      <UnsavedChangesPrompt isDirty={isDirty && createdId === null && !deleted} message="This segment has changes that are not saved. Save them first, or leave them behind." />
      <div className="segment-editor-grid">
        <div className="stack">
          <Card title="Details">
            <form className="segment-details" onSubmit={save} noValidate>
              <TextField
                ref={nameRef}
                label="Name"
                name="name"
                autoComplete="off"
                maxLength={200}
                placeholder="e.g. Lapsed runners"
                readOnly={!canEdit}
                value={name}
                onChange={(event) => {
                  setName(event.target.value);
                  setNameError(null);
                }}
                error={nameError}
              />
              <Field label="Description" hint="Optional: what the segment is for, for whoever picks it for a broadcast.">
                {(control) => (
                  <textarea
                    className="input textarea segment-description"
                    maxLength={2000}
                    rows={2}
                    readOnly={!canEdit}
                    value={description}
                    onChange={(event) => setDescription(event.target.value)}
                    {...control}
                  />
                )}
              </Field>
            </form>
          </Card>
          <Card
            title="Rule"
            description="Add conditions on what users did, the data you keep about them and whether they can be reached. Group them to mix “all” and “any”; Not inverts a row or a group."
          >
            <RuleBuilder
              root={root}
              problems={problems}
              attributes={lists.attributes}
              activityNames={lists.activityNames}
              excludeSegmentId={start.id}
              readOnly={!canEdit}
              onChange={setRoot}
            />
          </Card>
        </div>
        <PreviewPanel words={words} preview={live.preview} error={live.error} isUpdating={live.isUpdating} isStale={live.isStale} hasProblems={!reading.ok} />
      </div>
    </>
  );
}

function sentence(text: string): string {
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

function ruleFromDraftOrNull(root: GroupDraft): Rule | null {
  const reading = ruleFromDraft(root);
  return reading.ok ? reading.rule : null;
}

/** Names the builder suggests: attributes and activities seen in the data (segments have their own picker). */
function useBuilderLists() {
  const trpc = useTRPC();
  const attributes = useQuery(trpc.segments.attributeNames.queryOptions(undefined, { staleTime: 60_000 }));
  const activities = useQuery(trpc.segments.activityNames.queryOptions(undefined, { staleTime: 60_000 }));
  return useMemo(
    () => ({ attributes: attributes.data?.items ?? [], activityNames: (activities.data?.items ?? []).map((activity) => activity.name) }),
    [attributes.data, activities.data],
  );
}

/** The names of the segments a rule refers to, for its plain words: read by id, however many segments exist. */
function useSegmentNames(rule: Rule | null): Record<string, string> {
  const trpc = useTRPC();
  const ids = rule ? [...new Set(segmentReferences(rule).map((r) => r.segmentId))] : [];
  const found = useQueries({ queries: ids.map((id) => trpc.segments.get.queryOptions({ id }, { staleTime: 30_000 })) });
  return Object.fromEntries(found.flatMap((q) => (q.data ? [[q.data.segment.id, q.data.segment.name]] : [])));
}
