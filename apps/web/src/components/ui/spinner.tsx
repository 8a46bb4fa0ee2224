import { classNames } from "../../lib/class-names.ts";

/** A decorative spinner; pass `label` when it is the only sign that something is loading. */
export function Spinner({ size = "md", label }: { size?: "sm" | "md" | "lg"; label?: string }) {
  const spinner = <span className={classNames("spinner", `spinner-${size}`)} aria-hidden="true" />;
  if (!label) return spinner;
  return (
    <span role="status" className="spinner-labelled">
      {spinner}
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

/** Fills the viewport while the app decides which page to show. */
export function PageSpinner({ label = "Loading" }: { label?: string }) {
  return (
    <div className="page-spinner">
      <Spinner size="lg" label={label} />
    </div>
  );
}
