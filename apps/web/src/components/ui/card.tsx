import { useId, type ReactNode } from "react";
import { classNames } from "../../lib/class-names.ts";

type CardProps = {
  title?: string;
  description?: ReactNode;
  /** Buttons or links aligned with the title. */
  actions?: ReactNode;
  /** Lets a table or list run edge to edge instead of sitting inside the padding. */
  flush?: boolean;
  className?: string;
  children: ReactNode;
};

export function Card({ title, description, actions, flush = false, className, children }: CardProps) {
  const titleId = useId();
  return (
    <section className={classNames("card", className)} aria-labelledby={title ? titleId : undefined}>
      {(title || actions) && (
        <header className="card-header">
          <div>
            {title && (
              <h2 className="card-title" id={titleId}>
                {title}
              </h2>
            )}
            {description && <p className="card-description">{description}</p>}
          </div>
          {actions && <div className="card-actions">{actions}</div>}
        </header>
      )}
      <div className={flush ? "card-body-flush" : "card-body"}>{children}</div>
    </section>
  );
}
