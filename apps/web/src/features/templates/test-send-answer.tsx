import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import { describeReason } from "../../lib/describe-reason.ts";
import type { TemplateTestResult } from "./template-types.ts";

// A provider adapter's outcomes, phrased as what a real notification would do.
const outcomes: Record<string, { tone: BadgeTone; label: string; meaning: string }> = {
  sent: { tone: "success", label: "Sent", meaning: "The provider accepted the message." },
  retry: { tone: "warning", label: "Retry", meaning: "A temporary failure: a real notification would be tried again." },
  dead: { tone: "danger", label: "Dead", meaning: "A permanent failure: a real notification would not be retried." },
  outage: { tone: "danger", label: "Outage", meaning: "The provider looks down: a real notification would wait." },
};

/** The provider's answer to a test send, as it came back. */
export function TestSendAnswer({ result }: { result: TemplateTestResult }) {
  const outcome = outcomes[result.outcome] ?? { tone: "neutral" as const, label: result.outcome, meaning: "" };
  return (
    <div className="send-test-answer" role="status">
      <p className="send-test-outcome">
        <Badge tone={outcome.tone}>{outcome.label}</Badge>
        <span>{outcome.meaning}</span>
      </p>
      <dl className="provider-facts">
        <div>
          <dt>To</dt>
          <dd>
            <code className="code">{result.to}</code>
          </dd>
        </div>
        <div>
          <dt>Provider</dt>
          <dd>
            <code className="code">{result.provider}</code>
          </dd>
        </div>
        <div>
          <dt>Provider code</dt>
          <dd>{result.providerCode ? <code className="code">{result.providerCode}</code> : <span className="muted">None</span>}</dd>
        </div>
        <div>
          <dt>Reason</dt>
          <dd>
            {result.reason ? (
              <>
                <span className="reason-text">{describeReason(result.reason)}</span>
                <span className="reason-code">{result.reason}</span>
              </>
            ) : (
              <span className="muted">None</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Latency</dt>
          <dd>{`${Math.round(result.latencyMs)} ms`}</dd>
        </div>
      </dl>
    </div>
  );
}
