import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { SelectField, TextField } from "../../components/ui/field.tsx";
import { UnsavedChangesPrompt } from "../../components/ui/unsaved-changes-prompt.tsx";
import { channelLabel, channels } from "../../lib/channels.ts";
import { getErrorMessage, getFieldErrors } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { inputFromDraft, sameDraft, type CategoryDraft } from "./category-draft.ts";

/** Creates a category (`isNew`) or changes one; the key of an existing category stays as it is. */
export function CategoryForm({ start, isNew }: { start: CategoryDraft; isNew: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [draft, setDraft] = useState(start);
  const [saved, setSaved] = useState<CategoryDraft | null>(isNew ? null : start);
  const [done, setDone] = useState(false);
  const upsert = useMutation(
    trpc.categories.upsert.mutationOptions({
      // A user's page lists the categories too (mandatory, defaults): a cached one would offer to switch off what no longer can be.
      onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: trpc.categories.pathKey() }), queryClient.invalidateQueries(trpc.users.get.pathFilter())]),
    }),
  );
  // A new category is unsaved until created; an existing one once it differs from what is stored.
  const isDirty = saved === null || !sameDraft(draft, saved);
  const fields = getFieldErrors(upsert.error);
  const unplaced = upsert.error && fields.size === 0 ? getErrorMessage(upsert.error) : null;

  // Leave once the form has re-rendered as saved, so the unsaved-changes prompt lets it go.
  useEffect(() => {
    if (done && !isDirty) navigate("/settings/categories");
  }, [done, isDirty, navigate]);

  function change(patch: Partial<CategoryDraft>) {
    setDraft((current) => ({ ...current, ...patch }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    upsert.mutate(inputFromDraft(draft), {
      onSuccess: () => {
        setSaved(draft);
        setDone(true);
      },
    });
  }

  const aliasError = [...fields].find(([path]) => path === "aliases" || path.startsWith("aliases."))?.[1];
  const capError = [...fields].find(([path]) => path.startsWith("frequencyCap"));

  return (
    <Card
      title={isNew ? "New category" : `Category “${start.label}”`}
      description="What notifications are about. Users choose per category and channel; these are the defaults until they do."
    >
      <UnsavedChangesPrompt isDirty={isDirty && !done} message="This category has changes that are not saved. Save them first, or leave them behind." />
      <form className="form form-narrow" onSubmit={submit} noValidate aria-label={isNew ? "New category" : "Edit category"}>
        {unplaced && (
          <Alert tone="error" title="Not saved">
            {unplaced}
          </Alert>
        )}
        <TextField
          label="Key"
          name="key"
          autoComplete="off"
          readOnly={!isNew}
          placeholder="e.g. marketing"
          value={draft.key}
          onChange={(event) => change({ key: event.target.value })}
          hint={isNew ? "What events and the API name it: lower-case letters, digits, “_”, “.” or “-”. It cannot change later." : "The key cannot change."}
          error={fields.get("key")}
        />
        <TextField label="Label" name="label" autoComplete="off" placeholder="e.g. News and offers" value={draft.label} onChange={(event) => change({ label: event.target.value })} hint="What users see on their preferences page." error={fields.get("label")} />
        <fieldset className="category-fieldset">
          <legend className="field-label">Default per channel</legend>
          <p className="field-hint">What a user who never chose receives.</p>
          <div className="category-toggles">
            {channels.map((channel) => (
              <label className="checkbox" key={channel}>
                <input
                  type="checkbox"
                  name={`default-${channel}`}
                  checked={draft.defaults[channel]}
                  onChange={(event) => change({ defaults: { ...draft.defaults, [channel]: event.target.checked } })}
                />
                {channelLabel(channel)}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="checkbox">
          <input type="checkbox" name="mandatory" checked={draft.mandatory} onChange={(event) => change({ mandatory: event.target.checked })} />
          Mandatory: users cannot switch it off (security alerts, receipts)
        </label>
        <TextField
          label="Aliases"
          name="aliases"
          autoComplete="off"
          placeholder="e.g. promo, promotions"
          value={draft.aliases}
          onChange={(event) => change({ aliases: event.target.value })}
          hint="Other keys that name this category, comma-separated, so “reminder” and “reminders” reach one gate."
          error={aliasError}
        />
        <fieldset className="category-fieldset">
          <legend className="field-label">Tracking</legend>
          <div className="category-toggles">
            <label className="checkbox">
              <input type="checkbox" name="track-opens" checked={draft.trackOpens} onChange={(event) => change({ trackOpens: event.target.checked })} />
              Email opens
            </label>
            <label className="checkbox">
              <input type="checkbox" name="track-clicks" checked={draft.trackClicks} onChange={(event) => change({ trackClicks: event.target.checked })} />
              Link clicks
            </label>
          </div>
        </fieldset>
        <fieldset className="category-fieldset">
          <legend className="field-label">Frequency cap</legend>
          <label className="checkbox">
            <input type="checkbox" name="capped" checked={draft.capped} onChange={(event) => change({ capped: event.target.checked })} />
            Limit how many a user gets
          </label>
          {draft.capped && (
            <div className="category-cap">
              <TextField label="At most" name="cap-max" type="number" inputMode="numeric" value={draft.capMax} onChange={(event) => change({ capMax: event.target.value })} error={fields.get("frequencyCap.max")} />
              <TextField
                label="Per (minutes)"
                name="cap-window"
                type="number"
                inputMode="numeric"
                value={draft.capWindowMinutes}
                onChange={(event) => change({ capWindowMinutes: event.target.value })}
                error={fields.get("frequencyCap.windowSeconds")}
              />
              <SelectField label="Then" name="cap-action" value={draft.capAction} onChange={(event) => change({ capAction: event.target.value === "skip" ? "skip" : "defer" })}>
                <option value="defer">Defer the rest</option>
                <option value="skip">Skip the rest</option>
              </SelectField>
            </div>
          )}
          {capError && !["frequencyCap.max", "frequencyCap.windowSeconds"].includes(capError[0]) && <p className="field-error">{capError[1]}</p>}
        </fieldset>
        <div className="form-inline-buttons">
          <Button type="submit" variant="primary" pending={upsert.isPending} disabled={!isDirty}>
            {isNew ? "Create category" : "Save category"}
          </Button>
          <Button variant="ghost" onClick={() => navigate("/settings/categories")}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}
