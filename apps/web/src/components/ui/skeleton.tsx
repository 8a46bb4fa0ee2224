import { classNames } from "../../lib/class-names.ts";

export function Skeleton({ width, className }: { width?: string; className?: string }) {
  return <span className={classNames("skeleton", className)} style={width ? { width } : undefined} aria-hidden="true" />;
}

/** Placeholder rows shaped like the table that is loading. */
export function TableSkeleton({ columns, rows = 4, label }: { columns: number; rows?: number; label: string }) {
  return (
    <div role="status" className="table-skeleton">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: rows }, (_, row) => (
        <div className="table-skeleton-row" key={row}>
          {Array.from({ length: columns }, (_, column) => (
            <Skeleton key={column} width={`${55 + ((row * 7 + column * 13) % 40)}%`} />
          ))}
        </div>
      ))}
    </div>
  );
}
