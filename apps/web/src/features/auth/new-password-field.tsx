import { Field } from "../../components/ui/field.tsx";
import { minPasswordLength, ratePasswordStrength } from "./password-strength.ts";

/** A password being chosen, with a live strength meter as its hint. */
export function NewPasswordField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null | undefined;
}) {
  const strength = ratePasswordStrength(value);
  const hint = value ? (
    <div className="strength">
      <div className={`strength-meter strength-${strength.score}`} aria-hidden="true">
        <span />
        <span />
        <span />
        <span />
      </div>
      <span>
        <strong>{strength.label}.</strong> {strength.hint}
      </span>
    </div>
  ) : (
    `At least ${minPasswordLength} characters. A short sentence is easy to remember and hard to guess.`
  );
  return (
    <Field label="Password" hint={hint} error={error}>
      {(control) => (
        <input
          className="input"
          type="password"
          name="password"
          autoComplete="new-password"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          {...control}
        />
      )}
    </Field>
  );
}
