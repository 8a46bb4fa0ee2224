import { describeReason } from "../../lib/describe-reason.ts";
import { settingText } from "./provider-draft.ts";
import { getProviderKindSpec } from "./provider-kinds.ts";
import type { Provider } from "./provider-types.ts";

const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** A provider's non-secret settings, its secrets masked as the server sent them, and its rate limit. */
export function ProviderFacts({ provider }: { provider: Provider }) {
  const spec = getProviderKindSpec(provider.kind);
  const settings: Record<string, unknown> = provider.settings;
  const known = new Set(spec.settings.map((field) => field.key));
  const rows: Array<{ label: string; value: string; isCode?: boolean }> = [];

  for (const field of spec.settings) {
    // The rate limit is shown below, beside the tokens it refills.
    if (field.key === "ratePerSecond") continue;
    const value = settingText(settings[field.key]);
    if (value) rows.push({ label: field.label, value, isCode: field.input === "url" });
  }
  // Settings a newer server adds show up under their own key rather than vanish.
  for (const [key, raw] of Object.entries(settings)) {
    const value = settingText(raw);
    if (!known.has(key) && value) rows.push({ label: key, value });
  }
  for (const field of spec.secrets) {
    const masked = provider.secrets[field.key];
    if (masked) rows.push({ label: field.label, value: masked, isCode: true });
  }

  // The token bucket appears once the server has rebuilt its providers; until then, the configured rate.
  const configured = settings.ratePerSecond;
  const ratePerSecond = provider.ratePerSecond ?? (typeof configured === "number" ? configured : spec.defaultRatePerSecond);

  return (
    <dl className="provider-facts">
      {rows.map((row) => (
        <div key={row.label}>
          <dt>{row.label}</dt>
          <dd>{row.isCode ? <code className="code">{row.value}</code> : row.value}</dd>
        </div>
      ))}
      <div>
        <dt>Rate limit</dt>
        <dd>
          {`${decimal.format(ratePerSecond)} per second`}
          {provider.tokens !== null && <span className="muted">{` · ${decimal.format(provider.tokens)} available now`}</span>}
        </dd>
      </div>
      {provider.breaker !== "closed" && provider.breakerReason && (
        <div>
          <dt>Why</dt>
          <dd className="provider-breaker-reason">{describeReason(provider.breakerReason)}</dd>
        </div>
      )}
    </dl>
  );
}
