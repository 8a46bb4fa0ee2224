import type { ComponentProps, ReactNode } from "react";
import { Field } from "../../components/ui/field.tsx";
import { classNames } from "../../lib/class-names.ts";

/** The UI kit's Field around a textarea: label, hint and error wired the same way as its inputs. */
export function TextAreaField({
  label,
  hint,
  error,
  className,
  isCode = false,
  ...textarea
}: { label: string; hint?: ReactNode; error?: string | null; isCode?: boolean } & ComponentProps<"textarea">) {
  return (
    <Field label={label} hint={hint} error={error} className={className}>
      {(control) => <textarea className={classNames("input", "textarea", isCode && "input-mono")} spellCheck={!isCode} {...textarea} {...control} />}
    </Field>
  );
}
