import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import { describeReason } from "../../lib/describe-reason.ts";
import type { SendTestResult } from "./provider-types.ts";

type Outcome = SendTestResult["outcome"];

// The four outcomes a provider adapter can return, phrased as what a real notification would do.
const outcomes: Record<Outcome, { tone: BadgeTone; label: string; meaning: string }> = {
  sent: { tone: "success", label: "Sent", meaning: "The provider accepted the message." },
  retry: { tone: "warning", label: "Retry", meaning: "A temporary failure: a real notification would be tried again." },
  dead: { tone: "danger", label: "Dead", meaning: "A permanent failure: a real notification would not be retried." },
  outage: {
    tone: "danger",
    label: "Outage",
    meaning: "The provider looks down: a real notification would wait, and its circuit counts the failure.",
  },
};

/** The provider's answer to a test message, as it came back. */
export function SendTestAnswer({ result }: { result: SendTestResult }) {
  const { tone, label, meaning } = outcomes[result.outcome];
  const reasonText = result.reason ? describeReason(result.reason) : null;
  return (
    <div className="send-test-answer" role="status">
      <p className="send-test-outcome">
        <Badge tone={tone}>{label}</Badge>
        <span>{meaning}</span>
      </p>
      <dl className="provider-facts">
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
                <span className="reason-text">{reasonText}</span>
                {/* A code core does not know is shown as it is: no need to repeat it. */}
                {reasonText !== result.reason && <span className="reason-code">{result.reason}</span>}
              </>
            ) : (
              <span className="muted">None</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Message id</dt>
          <dd>
            {result.providerMessageId ? <code className="code">{result.providerMessageId}</code> : <span className="muted">None</span>}
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
