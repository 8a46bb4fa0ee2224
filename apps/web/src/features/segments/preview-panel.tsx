import { Link } from "react-router";
import { Alert } from "../../components/ui/alert.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { formatCount, formatUsers } from "./format-count.ts";
import type { SegmentPreview } from "./segment-types.ts";

/** Beside the builder: how many users match right now, the rule in words, and who some of them are. */
export function PreviewPanel({
  words,
  preview,
  error,
  isUpdating,
  isStale,
  hasProblems,
}: {
  words: string | null;
  preview: SegmentPreview | null;
  error: unknown;
  isUpdating: boolean;
  isStale: boolean;
  hasProblems: boolean;
}) {
  return (
    <Card
      title="Who matches"
      description="Counted live as you edit, over everyone Herald knows now."
      actions={isUpdating && <Spinner size="sm" label="Counting" />}
      className="segment-preview"
    >
      <div className="segment-preview-body">
        <div aria-live="polite" className="segment-count-block">
          {hasProblems ? (
            <p className="muted">Finish the highlighted conditions to count who matches.</p>
          ) : preview && preview.count === null ? (
            <p className="segment-count">Counting took too long. The sample below is still right; the count will be taken when a broadcast sends.</p>
          ) : preview ? (
            <p className="segment-count" data-stale={isStale || undefined}>
              <span className="segment-count-number">{formatCount(preview.count ?? 0)}</span> {preview.count === 1 ? "user matches" : "users match"}
            </p>
          ) : error == null ? (
            <div role="status" className="segment-count-loading">
              <span className="visually-hidden">Counting</span>
              <Skeleton width="50%" className="skeleton-input" />
            </div>
          ) : null}
        </div>
        {error != null && (
          <Alert tone="error" title="Could not count this rule">
            {getErrorMessage(error)}
          </Alert>
        )}
        {words !== null && (
          <div className="segment-words-block">
            <p className="segment-label">In plain words</p>
            <p className="segment-plain-words" data-testid="plain-words">
              {words}
            </p>
          </div>
        )}
        {preview && !hasProblems && <SampleTable preview={preview} />}
      </div>
    </Card>
  );
}

function SampleTable({ preview }: { preview: SegmentPreview }) {
  if (preview.sample.length === 0) {
    return <p className="muted">Nobody matches yet. Loosen a condition, or check that the names match what your app sends.</p>;
  }
  return (
    <div className="segment-sample">
      <p className="segment-label">
        {preview.count === null || preview.sample.length < preview.count
          ? `The first ${preview.sample.length}${preview.count === null ? "" : ` of ${formatUsers(preview.count)}`}`
          : `All ${formatUsers(preview.count)}`}
      </p>
      <div className="table-wrap">
        <table className="table table-compact" aria-label="Sample of matching users">
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Email</th>
              <th scope="col">Phone</th>
            </tr>
          </thead>
          <tbody>
            {preview.sample.map((user) => (
              <tr key={user.id}>
                <td className="cell-break">
                  <Link to={`/users?user=${encodeURIComponent(user.externalId)}`} className="segment-user-link">
                    {user.externalId}
                  </Link>
                </td>
                <td className="cell-break">{user.email ?? <span className="muted">—</span>}</td>
                <td className="cell-nowrap">{user.phone ?? <span className="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
