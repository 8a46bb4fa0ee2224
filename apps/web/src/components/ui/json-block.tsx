/** A JSON value, indented, for payloads and logs a member needs to read rather than skim. */
export function JsonBlock({ value, label }: { value: unknown; label?: string }) {
  return (
    <pre className="code-block" aria-label={label} tabIndex={0}>
      {formatJson(value)}
    </pre>
  );
}

function formatJson(value: unknown): string {
  if (value === undefined) return "—";
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}
