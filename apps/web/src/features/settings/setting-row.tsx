import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button.tsx";
import type { Setting } from "../../lib/api-types.ts";
import { formatDateTime, formatRelative } from "../../lib/format-date.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";

type Value = Setting["value"];

/** One setting with its own Save, so a bad value in one row never blocks another. */
export function SettingRow({ setting, canEdit }: { setting: Setting; canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(
    trpc.settings.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.settings.list.queryKey() }),
    }),
  );
  const id = useId();
  const [draft, setDraft] = useState(() => toDraft(setting.value));
  const [savedValue, setSavedValue] = useState(setting.value);
  const [inputError, setInputError] = useState<string | null>(null);

  // When the stored value changes (saved here, or elsewhere and refetched) the draft follows it.
  if (savedValue !== setting.value) {
    setSavedValue(setting.value);
    setDraft(toDraft(setting.value));
  }

  const readOnly = setting.pinnedBy !== null || !canEdit;
  const dirty = draft !== toDraft(setting.value);
  const error = inputError ?? (update.error ? getErrorMessage(update.error) : null);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = fromDraft(setting.type, draft);
    if (!parsed.ok) {
      setInputError(parsed.error);
      return;
    }
    setInputError(null);
    update.mutate({ key: setting.key, value: parsed.value });
  }

  const control = {
    id,
    name: setting.key,
    "aria-describedby": [hintId, error ? errorId : null].filter(Boolean).join(" "),
    "aria-invalid": error ? true : undefined,
  };

  return (
    <form className="setting-row" onSubmit={submit} noValidate>
      <div className="setting-text">
        <label className="field-label" htmlFor={id}>
          {setting.label}
        </label>
        <p className="field-hint" id={hintId}>
          {setting.description}
        </p>
        <p className="setting-meta">
          {setting.pinnedBy ? (
            <>
              Set by <code>{setting.pinnedBy}</code> in the server environment; change it there.
            </>
          ) : setting.updatedAt ? (
            <>
              Changed{" "}
              <time dateTime={setting.updatedAt} title={formatDateTime(setting.updatedAt)}>
                {formatRelative(setting.updatedAt)}
              </time>
            </>
          ) : (
            "Default value"
          )}
        </p>
      </div>
      <div className="setting-control">
        <div className="setting-field">
          {setting.type === "boolean" ? (
            <div className="checkbox">
              <input
                type="checkbox"
                checked={draft === "true"}
                disabled={readOnly}
                onChange={(event) => setDraft(String(event.target.checked))}
                {...control}
              />
              {/* Not a <label>: a second label would change the checkbox's accessible name. */}
              <span aria-hidden="true">{draft === "true" ? "On" : "Off"}</span>
            </div>
          ) : (
            <input
              className="input"
              type={setting.type === "number" ? "number" : "text"}
              inputMode={setting.type === "number" ? "decimal" : undefined}
              readOnly={readOnly}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              {...control}
            />
          )}
          {!readOnly && (
            <Button type="submit" variant="primary" disabled={!dirty} pending={update.isPending}>
              Save
            </Button>
          )}
        </div>
        {error ? (
          <p className="field-error" id={errorId}>
            {error}
          </p>
        ) : (
          update.isSuccess &&
          !dirty && (
            <p className="saved" role="status">
              Saved
            </p>
          )
        )}
      </div>
    </form>
  );
}

// Inputs edit text; booleans are "true"/"false" so one string state covers every type.
function toDraft(value: Value): string {
  return String(value);
}

function fromDraft(type: Setting["type"], draft: string): { ok: true; value: Value } | { ok: false; error: string } {
  switch (type) {
    case "boolean":
      return { ok: true, value: draft === "true" };
    case "number": {
      const value = Number(draft);
      if (draft.trim() === "" || !Number.isFinite(value)) return { ok: false, error: "Enter a number." };
      return { ok: true, value };
    }
    case "string":
      return { ok: true, value: draft };
  }
}
