import { canonicalLocale } from "@herald/core/browser";
import { useId, useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button.tsx";

/** "Add locale", opening into a one-field form for a BCP 47 tag. */
export function AddLocaleForm({ existing, onAdd }: { existing: readonly string[]; onAdd: (locale: string) => void }) {
  const [open, setOpen] = useState(false);
  const [tag, setTag] = useState("");
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const locale = canonicalLocale(tag);
    if (!locale) {
      setError("Enter a known language as a BCP 47 tag, such as fr, de-CH or pt-BR.");
      return;
    }
    if (existing.some((other) => other.toLowerCase() === locale.toLowerCase())) {
      setError(`${locale} is already here.`);
      return;
    }
    onAdd(locale);
    setOpen(false);
    setTag("");
    setError(null);
  }

  if (!open) {
    return (
      <Button size="sm" variant="ghost" className="template-add-locale" onClick={() => setOpen(true)}>
        + Add locale
      </Button>
    );
  }
  return (
    <form className="template-add-locale-form" onSubmit={submit} aria-label="Add a locale" noValidate>
      <input
        className="input input-sm input-mono"
        aria-label="Language tag"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        placeholder="e.g. fr or pt-BR"
        autoComplete="off"
        spellCheck={false}
        autoFocus
        value={tag}
        onChange={(event) => {
          setTag(event.target.value);
          setError(null);
        }}
        onKeyDown={(event) => {
          if (event.key === "Escape") setOpen(false);
        }}
      />
      <Button size="sm" type="submit">
        Add
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
        Cancel
      </Button>
      {error && (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
