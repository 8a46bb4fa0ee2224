import { useInfiniteQuery } from "@tanstack/react-query";
import { Card } from "../../components/ui/card.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { LoadMoreFooter } from "../../components/ui/load-more-footer.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { formatCount } from "./format-count.ts";

/** "email: x@y, plan: free": the row's non-empty cells under their column names. */
function describeCells(header: readonly string[], cells: readonly string[]): string {
  return cells.flatMap((cell, i) => (cell.trim() === "" ? [] : [`${header[i]?.trim() || `column ${i + 1}`}: ${cell}`])).join(", ");
}

/** Refused rows with their reasons, and the whole report as a CSV to fix and upload again. */
export function ImportErrors({ id, header, failed }: { id: string; header: string[]; failed: number }) {
  const trpc = useTRPC();
  const errors = useInfiniteQuery(trpc.imports.errors.infiniteQueryOptions({ id, limit: 50 }, { getNextPageParam: (page) => page.nextCursor }));
  const items = errors.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Card
      title="Refused rows"
      description={`${formatCount(failed)} row${failed === 1 ? " was" : "s were"} not imported. The report lists each with its reason, then its cells as uploaded: fix them and upload the report again.`}
      actions={
        <a className="btn btn-secondary" href={`/files/imports/${id}/errors.csv`} download>
          Download error report (CSV)
        </a>
      }
      flush
    >
      {errors.isPending ? (
        <TableSkeleton columns={3} rows={3} label="Loading refused rows" />
      ) : errors.isError ? (
        <ErrorState error={errors.error} title="Could not load refused rows" onRetry={() => errors.refetch()} retrying={errors.isFetching} />
      ) : (
        <>
          <div className="table-wrap">
            <table className="table table-compact" aria-label="Refused rows">
              <thead>
                <tr>
                  <th scope="col" className="cell-number import-row-number">
                    Row
                  </th>
                  <th scope="col">Reason</th>
                  <th scope="col">Cells</th>
                </tr>
              </thead>
              <tbody>
                {items.map((e) => (
                  <tr key={e.row}>
                    <td className="cell-number import-row-number">{e.row}</td>
                    <td className="preview-reason">{e.reason}</td>
                    <td className="cell-detail cell-break">{describeCells(header, e.fields)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <LoadMoreFooter query={errors} />
        </>
      )}
    </Card>
  );
}
