import { CopyField } from "../../components/ui/copy-field.tsx";

/** The key itself. Herald stores only its hash, so once this is gone nobody can see it again. */
export function NewApiKey({ name, secret }: { name: string; secret: string }) {
  return (
    <div className="shown-once">
      <CopyField
        label="API key"
        value={secret}
        hint={
          <>
            The key for <strong>{name}</strong>. It will not be shown again: copy it now into your secret store. Send it
            in the <code>Authorization: Bearer</code> header.
          </>
        }
      />
    </div>
  );
}
