import { useRef, useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/field.tsx";
import { formatDateTime } from "../../lib/format-date.ts";

/** The invite link. Only the invite response carries it, so once this is gone nobody can see it again. */
export function InviteLink({ url, email, expiresAt }: { url: string; email: string; expiresAt: string }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(url);
      setCopy("copied");
    } catch {
      // The Clipboard API needs a secure context; over plain HTTP select the text so Ctrl+C works.
      inputRef.current?.select();
      setCopy("failed");
    }
  }

  return (
    <div className="invite-link">
      <Field
        label="Invite link"
        hint={
          <>
            Shown once: copy it now and send it to <strong>{email}</strong>. It expires{" "}
            <time dateTime={expiresAt}>{formatDateTime(expiresAt)}</time>.
          </>
        }
      >
        {(control) => (
          <div className="input-group">
            <input
              ref={inputRef}
              className="input input-mono"
              readOnly
              value={url}
              onFocus={(event) => event.target.select()}
              {...control}
            />
            <Button onClick={copyLink}>Copy</Button>
          </div>
        )}
      </Field>
      <p className="copy-status" role="status">
        {copy === "copied" && "Copied to the clipboard."}
        {copy === "failed" && "Could not copy automatically; the link is selected, press Ctrl+C (⌘C on a Mac)."}
      </p>
    </div>
  );
}
