import { useMutation } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { ContentCard } from "./content-card.tsx";
import { DiscardDraftButton } from "./discard-draft-button.tsx";
import { EditVersionButton } from "./edit-version-button.tsx";
import { EditorStatus } from "./editor-status.tsx";
import { fieldAddress, variableAddress } from "./field-address.ts";
import { PreviewPanel, type SourceChoice } from "./preview-panel.tsx";
import { ProblemsList } from "./problems-list.tsx";
import { PublishDialog } from "./publish-dialog.tsx";
import { SendTestDialog } from "./send-test-dialog.tsx";
import { refusalProblems, shownProblems, type ShownProblem } from "./shown-problem.ts";
import { bodyFromDraft, draftFromBody, draftLocales, emptyLocaleDraft, newVariableRow, type TemplateDraft } from "./template-draft.ts";
import type { PreviewSource, TemplateBody, TemplateChannel, TemplateDetail } from "./template-types.ts";
import { UnsavedChangesPrompt } from "../../components/ui/unsaved-changes-prompt.tsx";
import { useInvalidateTemplates } from "./use-invalidate-templates.ts";
import { useLivePreview } from "./use-live-preview.ts";
import { useSaveShortcut } from "./use-save-shortcut.ts";
import { VariablesTable } from "./variables-table.tsx";

/** What the editor holds: the draft (editable by those who may), or a published version (read-only). */
export type Editing = { kind: "draft" } | { kind: "version"; version: number };

type Dialog = "publish" | "test" | null;

/** The editor beside its live preview, with saving, publishing and test sends. */
export function ContentEditor({
  detail,
  initialBody,
  editing,
  onPublished,
}: {
  detail: TemplateDetail;
  initialBody: TemplateBody;
  editing: Editing;
  onPublished: (version: number) => void;
}) {
  const { template, versions, canEdit } = detail;
  const isEditable = canEdit && editing.kind === "draft";
  const trpc = useTRPC();
  const invalidateTemplates = useInvalidateTemplates();
  const saveDraft = useMutation(trpc.templates.saveDraft.mutationOptions({ onSuccess: invalidateTemplates }));

  const [draft, setDraft] = useState(() => withLocale(draftFromBody(initialBody), template.defaultLocale));
  const [savedJson, setSavedJson] = useState(() => JSON.stringify(bodyFromDraft(draft)));
  const body = useMemo(() => bodyFromDraft(draft), [draft]);
  const bodyJson = useMemo(() => JSON.stringify(body), [body]);
  const isDirty = isEditable && bodyJson !== savedJson;

  // Tabs the member picked, kept valid when a locale is removed or the template's channels change.
  const locales = draftLocales(draft, template.defaultLocale);
  const [pickedLocale, setLocale] = useState(template.defaultLocale);
  const locale = locales.includes(pickedLocale) ? pickedLocale : template.defaultLocale;
  const firstChannel = template.channels[0] ?? "email";
  const [pickedChannel, setChannel] = useState<TemplateChannel>(firstChannel);
  const channel = template.channels.includes(pickedChannel) ? pickedChannel : firstChannel;

  const [choice, setChoice] = useState<SourceChoice>({ kind: "examples" });
  const source = useMemo((): PreviewSource | null => {
    if (choice.kind === "examples") return choice;
    const userId = choice.userId.trim();
    return userId ? { kind: "user", userId } : null;
  }, [choice]);
  const live = useLivePreview({ templateKey: template.key, body, channel, locale, source });

  // The preview checks the body as it is on screen, so its problems are the freshest; before its
  // first answer, those of the last save.
  const [saveProblems, setSaveProblems] = useState<ShownProblem[]>([]);
  const problems =
    refusalProblems(live.error) ?? (live.shown ? shownProblems(live.shown.answer.problems, draft.variables) : saveProblems);

  const [dialog, setDialog] = useState<Dialog>(null);
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  useEffect(() => {
    if (!focusTarget) return;
    document.querySelector<HTMLElement>(`[data-field="${CSS.escape(focusTarget)}"]`)?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  function save(then?: () => void) {
    if (!isEditable || saveDraft.isPending) return;
    const sent = bodyJson;
    saveDraft.mutate(
      { key: template.key, body },
      {
        onSuccess: ({ problems: found }) => {
          setSavedJson(sent);
          setSaveProblems(shownProblems(found, draft.variables));
          then?.();
        },
        onError: (error) => setSaveProblems(refusalProblems(error) ?? []),
      },
    );
  }
  useSaveShortcut(save, isEditable);

  // Publish and test sends work on the saved draft: unsaved edits are saved first.
  function openAfterSave(next: Exclude<Dialog, null>) {
    if (isDirty || (editing.kind === "draft" && detail.draft === null)) save(() => setDialog(next));
    else setDialog(next);
  }

  function goTo(problem: ShownProblem) {
    if (problem.locale && locales.includes(problem.locale)) setLocale(problem.locale);
    const problemChannel = template.channels.find((candidate) => candidate === problem.channel);
    if (problemChannel) setChannel(problemChannel);
    if (problem.address) setFocusTarget(problem.address);
  }

  const errorAt = (address: string) => problems.find((candidate) => candidate.address === address)?.message;
  const shownVersion =
    versions.find((version) => (editing.kind === "draft" ? version.status === "draft" : version.version === editing.version)) ?? null;
  const nextVersion = Math.max(0, ...versions.map((version) => version.version ?? 0)) + 1;
  const saveError = saveDraft.error && !refusalProblems(saveDraft.error) ? getErrorMessage(saveDraft.error) : null;

  return (
    <div className="stack">
      <div className="template-toolbar">
        <EditorStatus shown={shownVersion} isDirty={isDirty} canEdit={canEdit} />
        <div className="template-toolbar-actions">
          {editing.kind === "version" ? (
            canEdit && (
              <>
                <Button onClick={() => setDialog("test")}>Send test</Button>
                <EditVersionButton templateKey={template.key} version={editing.version} hasDraft={false} variant="primary">
                  {`Edit (start a draft from v${editing.version})`}
                </EditVersionButton>
              </>
            )
          ) : (
            isEditable && (
              <>
                {detail.draft !== null && <DiscardDraftButton templateKey={template.key} currentVersion={template.currentVersion} />}
                <Button onClick={() => openAfterSave("test")}>Send test</Button>
                <Button onClick={() => save()} pending={saveDraft.isPending} title="Ctrl+S, or ⌘S on a Mac">
                  Save draft
                </Button>
                <Button variant="primary" onClick={() => openAfterSave("publish")}>
                  Publish
                </Button>
              </>
            )
          )}
        </div>
      </div>
      {saveError && <Alert tone="error" title="The draft was not saved">{saveError}</Alert>}
      <UnsavedChangesPrompt isDirty={isDirty} message="The draft has changes that are not saved. Save them first with Save draft, or leave them behind." />
      <div className="template-editor-grid">
        <div className="stack">
          <ContentCard
            content={draft.content}
            locales={locales}
            defaultLocale={template.defaultLocale}
            channels={template.channels}
            locale={locale}
            channel={channel}
            readOnly={!isEditable}
            errorFor={(at, on, field) => errorAt(fieldAddress(at, on, field))}
            onSelectLocale={setLocale}
            onSelectChannel={setChannel}
            onChange={(at, value) => setDraft((current) => ({ ...current, content: { ...current.content, [at]: value } }))}
            onAddLocale={(added) => {
              setDraft((current) => ({ ...current, content: { ...current.content, [added]: emptyLocaleDraft() } }));
              setLocale(added);
            }}
            onRemoveLocale={(removed) =>
              setDraft((current) => ({
                ...current,
                content: Object.fromEntries(Object.entries(current.content).filter(([tag]) => tag !== removed)),
              }))
            }
          />
          {/* Only an editor can act on problems; a published version had none when it was published. */}
          {isEditable && (
            <Card
              title="Problems"
              description="Syntax errors, undeclared variables and missing copy, checked as you type. Publishing waits until there are none."
              actions={problems.length > 0 ? <Badge tone="danger">{problems.length}</Badge> : <Badge tone="success">None</Badge>}
              flush={problems.length > 0}
            >
              {problems.length > 0 ? (
                <ProblemsList
                  problems={problems}
                  onGoTo={goTo}
                  onDeclare={(name) =>
                    setDraft((current) =>
                      // The problem may predate a declaration just typed: never declare twice.
                      current.variables.some((row) => row.name.trim() === name)
                        ? current
                        : { ...current, variables: [...current.variables, { ...newVariableRow(), name }] },
                    )
                  }
                />
              ) : (
                <p className="template-empty-note">Nothing stops this from being published.</p>
              )}
            </Card>
          )}
        </div>
        <PreviewPanel shown={live.shown} error={live.error} isUpdating={live.isUpdating} choice={choice} onChoiceChange={setChoice} />
      </div>
      {/* Full width: five inputs a row do not fit beside the preview. */}
      <Card
        title="Variables"
        description="What the copy may use. Examples fill the preview and test sends; required ones must come with every event."
        flush
      >
        <VariablesTable
          rows={draft.variables}
          readOnly={!isEditable}
          errorFor={(index, field) => errorAt(variableAddress(index, field))}
          onChange={(variables) => setDraft((current) => ({ ...current, variables }))}
        />
      </Card>
      <PublishDialog
        open={dialog === "publish"}
        templateKey={template.key}
        currentVersion={template.currentVersion}
        nextVersion={nextVersion}
        onClose={() => setDialog(null)}
        onPublished={(version) => {
          setDialog(null);
          onPublished(version);
        }}
      />
      <SendTestDialog
        open={dialog === "test"}
        templateKey={template.key}
        version={editing.kind === "draft" ? "draft" : editing.version}
        channels={template.channels}
        locales={locales}
        initialChannel={channel}
        initialLocale={locale}
        onClose={() => setDialog(null)}
      />
    </div>
  );
}

/** A draft always has its default locale's tab, even before anything is written in it. */
function withLocale(draft: TemplateDraft, locale: string): TemplateDraft {
  if (draft.content[locale]) return draft;
  return { ...draft, content: { [locale]: emptyLocaleDraft(), ...draft.content } };
}
