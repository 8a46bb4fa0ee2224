import type { ReactNode } from "react";

/** A card for reference material: closed, it is one line; the native <details> keeps it accessible. */
export function CollapsibleCard({
  title,
  description,
  defaultOpen = false,
  flush = false,
  children,
}: {
  title: string;
  description?: ReactNode;
  defaultOpen?: boolean;
  flush?: boolean;
  children: ReactNode;
}) {
  return (
    <details className="card card-collapsible" open={defaultOpen}>
      <summary className="card-header">
        <span className="card-summary">
          <span className="card-title">{title}</span>
          {description && <span className="card-description">{description}</span>}
        </span>
        <span className="expand-chevron" aria-hidden="true" />
      </summary>
      <div className={flush ? "card-body-flush" : "card-body"}>{children}</div>
    </details>
  );
}
