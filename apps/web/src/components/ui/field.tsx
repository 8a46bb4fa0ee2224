import { useId, type ComponentProps, type ReactNode } from "react";
import { classNames } from "../../lib/class-names.ts";

type ControlProps = {
  id: string;
  "aria-describedby": string | undefined;
  "aria-invalid": true | undefined;
};

type FieldProps = {
  label: string;
  /** Shown under the control until there is an error. */
  hint?: ReactNode;
  error?: string | null | undefined;
  className?: string;
};

/** Label, control, hint and inline error, wired together for assistive technology. */
export function Field({
  label,
  hint,
  error,
  className,
  children,
}: FieldProps & { children: (control: ControlProps) => ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = error ? errorId : hint ? hintId : undefined;
  return (
    <div className={classNames("field", className)}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children({ id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined })}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : hint ? (
        <div className="field-hint" id={hintId}>
          {hint}
        </div>
      ) : null}
    </div>
  );
}

export function TextField({ label, hint, error, className, ...input }: FieldProps & ComponentProps<"input">) {
  return (
    <Field label={label} hint={hint} error={error} className={className}>
      {(control) => <input className="input" {...input} {...control} />}
    </Field>
  );
}

export function SelectField({ label, hint, error, className, ...select }: FieldProps & ComponentProps<"select">) {
  return (
    <Field label={label} hint={hint} error={error} className={className}>
      {(control) => <select className="input select" {...select} {...control} />}
    </Field>
  );
}
