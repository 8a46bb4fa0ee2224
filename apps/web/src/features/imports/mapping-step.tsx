import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { ColumnFields } from "./column-fields.tsx";
import { formatCount } from "./format-count.ts";
import type { ImportDetail } from "./import-types.ts";
import { ListFields } from "./list-fields.tsx";
import { guessDraft, toMapping, type MappingDraft } from "./mapping-draft.ts";
import { PreviewTable } from "./preview-table.tsx";
import { useDebouncedValue } from "../../lib/use-debounced-value.ts";
import { UsersColumns } from "./users-columns.tsx";

const KINDS: Array<{ kind: MappingDraft["kind"]; title: string; text: string }> = [
  { kind: "users", title: "Users", text: "Create or update users: their fields and attributes. Empty cells change nothing." },
  { kind: "suppressions", title: "Suppressions", text: "Addresses never to email or text again, e.g. past bounces and complaints." },
  { kind: "opt_outs", title: "Opt-outs", text: "Users who switched a category off, on one channel or all of them." },
  { kind: "devices", title: "Devices", text: "Push tokens and their platform, registered to users as the API registers them." },
  { kind: "activities", title: "Activities", text: "What users did and when, for segments. Importing a file again records nothing twice." },
];

const FIELDS_HINT: Record<MappingDraft["kind"], string> = {
  users: "The external id is required: it is how your backend names the user. Other columns become fields or attributes, or are skipped.",
  suppressions: "Choose the column to read, and the channel that applies to it.",
  opt_outs: "Choose the column to read, and the channel and category that apply to it.",
  devices: "Choose whose token each row holds, the token, and its platform.",
  activities: "Choose who did what and when; a key and properties are optional.",
};

/** Maps the file's columns, previews the first rows as they would be imported, and starts it. */
export function MappingStep({ detail }: { detail: ImportDetail }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<MappingDraft>(() => guessDraft(detail.header));
  const built = toMapping(draft);
  const mapping = useDebouncedValue("mapping" in built ? built.mapping : null, 300);
  const preview = useQuery({
    ...trpc.imports.preview.queryOptions({ id: detail.id, mapping: mapping! }, { placeholderData: keepPreviousData }),
    enabled: mapping !== null,
  });
  const start = useMutation(
    trpc.imports.start.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.imports.pathKey() }),
    }),
  );
  const refused = preview.data?.rows.filter((r) => !r.ok).length ?? 0;

  return (
    <div className="import-steps">
      <Card title="1. What does this file hold?">
        <div className="import-kind" role="radiogroup" aria-label="What the file holds">
          {KINDS.map((k) => (
            <label key={k.kind} className="import-kind-option">
              <input type="radio" name="kind" value={k.kind} checked={draft.kind === k.kind} onChange={() => setDraft({ ...draft, kind: k.kind })} />
              <span>
                <span className="import-kind-title">{k.title}</span>
                <br />
                <span className="import-kind-text">{k.text}</span>
              </span>
            </label>
          ))}
        </div>
      </Card>

      <Card
        title="2. Map the columns"
        description={FIELDS_HINT[draft.kind]}
        flush={draft.kind === "users"}
      >
        {draft.kind === "users" ? (
          <UsersColumns header={detail.header} sample={detail.sample} columns={draft.columns} onChange={(columns) => setDraft({ ...draft, columns })} />
        ) : draft.kind === "devices" || draft.kind === "activities" ? (
          <ColumnFields kind={draft.kind} header={detail.header} draft={draft} onChange={setDraft} />
        ) : (
          <ListFields header={detail.header} draft={draft} onChange={setDraft} />
        )}
      </Card>

      <Card
        title="3. Preview"
        description={`The first ${detail.sample.length} of ${formatCount(detail.totalRows)} rows, as they would be imported.`}
        flush={"mapping" in built}
      >
        {"problem" in built ? (
          <Alert tone="info">{built.problem}</Alert>
        ) : preview.isPending ? (
          <TableSkeleton columns={4} rows={5} label="Loading the preview" />
        ) : preview.isError ? (
          <ErrorState error={preview.error} title="Could not preview this mapping" onRetry={() => preview.refetch()} retrying={preview.isFetching} />
        ) : (
          <PreviewTable rows={preview.data.rows} mapping={mapping ?? built.mapping} />
        )}
      </Card>

      <div className="import-actions">
        <Button
          variant="primary"
          disabled={!("mapping" in built) || preview.isError}
          pending={start.isPending}
          onClick={() => "mapping" in built && start.mutate({ id: detail.id, mapping: built.mapping })}
        >
          Import {formatCount(detail.totalRows)} rows
        </Button>
        {refused > 0 && (
          <span className="muted">
            {refused} of the first {detail.sample.length} rows would be refused; refused rows are listed with the reason after the import.
          </span>
        )}
        {start.isError && (
          <p className="field-error" role="alert">
            {getErrorMessage(start.error)}
          </p>
        )}
      </div>
    </div>
  );
}
