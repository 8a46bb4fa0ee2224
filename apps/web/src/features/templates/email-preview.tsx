import type { RenderedEmail } from "@herald/core/browser";
import { useId, useState } from "react";
import { tabIds, TabList } from "./tab-list.tsx";

type EmailView = "html" | "text";

/**
 * A rendered email as an inbox would show it. The HTML goes into an iframe with an empty
 * sandbox: it has no script, no same-origin access and no forms, so nothing in the copy can
 * touch the dashboard. The dashboard's CSP also keeps remote images out of it.
 */
export function EmailPreview({ email }: { email: RenderedEmail }) {
  const [view, setView] = useState<EmailView>("html");
  const idPrefix = useId();
  const ids = tabIds(idPrefix, view);
  return (
    <div className="template-email-preview">
      <dl className="template-email-headers">
        <div>
          <dt>Subject</dt>
          <dd className="template-email-subject">{email.subject}</dd>
        </div>
        <div>
          <dt>Preheader</dt>
          <dd>{email.preheader ? email.preheader : <span className="muted">None: inboxes show the start of the text instead.</span>}</dd>
        </div>
      </dl>
      <TabList
        label="Email body"
        idPrefix={idPrefix}
        size="sm"
        tabs={[
          { value: "html", label: "HTML" },
          { value: "text", label: "Plain text" },
        ]}
        selected={view}
        onSelect={setView}
      />
      <div role="tabpanel" id={ids.panel} aria-labelledby={ids.tab}>
        {view === "html" ? (
          <iframe className="template-email-frame" title={`Email preview: ${email.subject}`} sandbox="" srcDoc={email.html} />
        ) : (
          <pre className="code-block code-block-text template-email-text" tabIndex={0}>
            {email.text}
          </pre>
        )}
      </div>
    </div>
  );
}
