import { useRef, useState, type ReactNode } from "react";
import { Button } from "./button.tsx";
import { Field } from "./field.tsx";

/** A read-only value with a Copy button: invite links, new API keys. */
export function CopyField({ label, value, hint }: { label: string; value: string; hint?: ReactNode }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");

  async function copyValue() {
    try {
      await navigator.clipboard.writeText(value);
      setCopy("copied");
    } catch {
      // The Clipboard API needs a secure context; over plain HTTP select the text so Ctrl+C works.
      inputRef.current?.select();
      setCopy("failed");
    }
  }

  return (
    <div>
      <Field label={label} hint={hint}>
        {(control) => (
          <div className="input-group">
            <input
              ref={inputRef}
              className="input input-mono"
              readOnly
              value={value}
              onFocus={(event) => event.target.select()}
              {...control}
            />
            <Button onClick={copyValue}>Copy</Button>
          </div>
        )}
      </Field>
      <p className="copy-status" role="status">
        {copy === "copied" && "Copied to the clipboard."}
        {copy === "failed" && "Could not copy automatically; the text is selected, press Ctrl+C (⌘C on a Mac)."}
      </p>
    </div>
  );
}
