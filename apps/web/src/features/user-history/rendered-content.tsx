import { JsonBlock } from "../../components/ui/json-block.tsx";

/** What the provider was handed. HTML is shown as source: rendering it here would run its CSS and links. */
export function RenderedContent({ rendered }: { rendered: unknown }) {
  if (rendered === null || rendered === undefined) {
    return <p className="muted">Nothing was rendered: it never reached a send attempt.</p>;
  }
  if (typeof rendered !== "object" || Array.isArray(rendered)) return <JsonBlock value={rendered} label="Rendered content" />;
  const fields = rendered as Record<string, unknown>;
  const { subject, title, body, html, ...rest } = fields;
  return (
    <div className="rendered">
      {typeof subject === "string" && <RenderedField label="Subject" value={subject} />}
      {typeof title === "string" && <RenderedField label="Title" value={title} />}
      {typeof body === "string" && (
        <div className="rendered-field">
          <p className="rendered-label">Body</p>
          <pre className="code-block code-block-text">{body}</pre>
        </div>
      )}
      {typeof html === "string" && (
        <div className="rendered-field">
          <p className="rendered-label">HTML</p>
          <pre className="code-block">{html}</pre>
        </div>
      )}
      {Object.keys(rest).length > 0 && (
        <div className="rendered-field">
          <p className="rendered-label">Other fields</p>
          <JsonBlock value={rest} label="Other rendered fields" />
        </div>
      )}
    </div>
  );
}

function RenderedField({ label, value }: { label: string; value: string }) {
  return (
    <div className="rendered-field">
      <p className="rendered-label">{label}</p>
      <p>{value}</p>
    </div>
  );
}
