import { useState, type ReactNode } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { classNames } from "../../lib/class-names.ts";
import { downloadCsv, tableCsv, type Column } from "./analytics-csv.ts";

interface QueryState {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * A chart with the same numbers as a table and as CSV, and its loading, empty and error states.
 * `rows` is undefined while loading; the chart renders only when there is something to draw.
 */
export function ChartCard<Row>({
  title,
  description,
  query,
  rows,
  columns,
  isEmpty,
  emptyTitle,
  emptyText,
  csvName,
  chart,
}: {
  title: string;
  description?: ReactNode;
  query: QueryState;
  rows: readonly Row[] | undefined;
  columns: readonly Column<Row>[];
  isEmpty: boolean;
  emptyTitle: string;
  emptyText: ReactNode;
  csvName: string;
  chart: () => ReactNode;
}) {
  const [view, setView] = useState<"chart" | "table">("chart");
  const ready = !query.isPending && !query.isError && rows !== undefined;
  return (
    <Card
      title={title}
      description={description}
      actions={
        ready && !isEmpty ? (
          <>
            <div className="analytics-switch" role="group" aria-label={`Show ${title.toLowerCase()} as`}>
              {(["chart", "table"] as const).map((v) => (
                <button key={v} type="button" className={classNames("analytics-switch-button", view === v && "active")} aria-pressed={view === v} onClick={() => setView(v)}>
                  {v === "chart" ? "Chart" : "Table"}
                </button>
              ))}
            </div>
            <Button onClick={() => downloadCsv(csvName, tableCsv(columns, rows))}>Download CSV</Button>
          </>
        ) : undefined
      }
    >
      {query.isPending ? (
        <TableSkeleton columns={Math.min(columns.length, 6)} rows={4} label={`Loading ${title.toLowerCase()}`} />
      ) : query.isError ? (
        <ErrorState error={query.error} title={`Could not load ${title.toLowerCase()}`} onRetry={() => query.refetch()} retrying={query.isFetching} />
      ) : isEmpty || !rows ? (
        <EmptyState title={emptyTitle}>{emptyText}</EmptyState>
      ) : view === "chart" ? (
        <div className="analytics-chart">{chart()}</div>
      ) : (
        <div className="table-wrap">
          <table className="table table-compact" aria-label={title}>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.heading} scope="col" className={c.numeric ? "cell-number" : undefined}>
                    {c.heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr key={i}>
                  {columns.map((c) => (
                    <td key={c.heading} className={c.numeric ? "cell-number" : undefined}>
                      {c.value(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
