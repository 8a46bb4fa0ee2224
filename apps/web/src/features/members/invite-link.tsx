import { CopyField } from "../../components/ui/copy-field.tsx";
import { formatDateTime } from "../../lib/format-date.ts";

/** The invite link. Only the invite response carries it, so once this is gone nobody can see it again. */
export function InviteLink({ url, email, expiresAt }: { url: string; email: string; expiresAt: string }) {
  return (
    <div className="shown-once">
      <CopyField
        label="Invite link"
        value={url}
        hint={
          <>
            Shown once: copy it now and send it to <strong>{email}</strong>. It expires{" "}
            <time dateTime={expiresAt}>{formatDateTime(expiresAt)}</time>.
          </>
        }
      />
    </div>
  );
}
