import { useMutation, useQuery } from "@tanstack/react-query";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { FieldDiffs } from "./field-diffs.tsx";
import { ModalDialog } from "../../components/ui/modal-dialog.tsx";
import { useInvalidateTemplates } from "./use-invalidate-templates.ts";
import { versionLabel } from "./version-label.ts";

/** Publishing changes what every new notification says: the dialog shows exactly what changes. */
export function PublishDialog({
  open,
  templateKey,
  currentVersion,
  nextVersion,
  onClose,
  onPublished,
}: {
  open: boolean;
  templateKey: string;
  currentVersion: number | null;
  nextVersion: number;
  onClose: () => void;
  onPublished: (version: number) => void;
}) {
  const trpc = useTRPC();
  const invalidateTemplates = useInvalidateTemplates();
  const publish = useMutation(
    trpc.templates.publish.mutationOptions({
      // Here rather than in mutate(): the reload replaces the draft's editor, this dialog with it,
      // and callbacks given to mutate() do not run once their component is gone.
      onSuccess: async ({ version }) => {
        await invalidateTemplates();
        onPublished(version);
      },
    }),
  );

  return (
    <ModalDialog
      open={open}
      wide
      title={`Publish ${versionLabel(nextVersion)}?`}
      description={
        currentVersion === null
          ? "The first version: notifications that use this template can be sent from now on."
          : `New notifications use ${versionLabel(nextVersion)} from now on. Those already created keep ${versionLabel(currentVersion)}, so a retry never changes its copy.`
      }
      busy={publish.isPending}
      onClose={onClose}
    >
      {currentVersion !== null && <ChangesSince templateKey={templateKey} currentVersion={currentVersion} />}
      {publish.error && <Alert tone="error">{getErrorMessage(publish.error)}</Alert>}
      <div className="dialog-actions">
        <Button onClick={onClose} disabled={publish.isPending}>
          Cancel
        </Button>
        <Button
          variant="primary"
          pending={publish.isPending}
          onClick={() => publish.mutate({ key: templateKey })}
        >
          {`Publish ${versionLabel(nextVersion)}`}
        </Button>
      </div>
    </ModalDialog>
  );
}

function ChangesSince({ templateKey, currentVersion }: { templateKey: string; currentVersion: number }) {
  const trpc = useTRPC();
  const diff = useQuery(trpc.templates.diff.queryOptions({ key: templateKey, from: currentVersion, to: "draft" }));
  if (diff.isPending) return <TableSkeleton columns={2} rows={3} label="Loading the changes" />;
  if (diff.isError) {
    return <ErrorState error={diff.error} title="Could not load the changes" onRetry={() => diff.refetch()} retrying={diff.isFetching} />;
  }
  if (diff.data.fields.length === 0) {
    return <Alert tone="warning">{`The draft is the same as ${versionLabel(currentVersion)}: publishing it adds an identical version.`}</Alert>;
  }
  return (
    <div className="template-dialog-scroll">
      <FieldDiffs fields={diff.data.fields} fromLabel={versionLabel(currentVersion)} toLabel="Draft" />
    </div>
  );
}
