import type { ReactNode } from "react";
import { Link } from "react-router";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { channelLabel, type Channel } from "../../lib/channels.ts";
import { BreakerBadge } from "./breaker-badge.tsx";
import { ProviderFacts } from "./provider-facts.tsx";
import { getProviderKindSpec, providerKindLabel } from "./provider-kinds.ts";
import type { Provider, ProviderRole } from "./provider-types.ts";
import { RemoveProviderButton } from "./remove-provider-button.tsx";

/** What a channel does when its primary slot is empty: development sends to the sandbox. */
export type EmptyPrimary = "sandbox" | "deferred";

type ProviderSlotProps = {
  channel: Channel;
  role: ProviderRole;
  provider: Provider | null;
  /** Only for the primary: what happens while no provider fills it. */
  emptyPrimary: EmptyPrimary;
  /** A secondary is only used behind a primary: without one, the channel has no route at all. */
  hasPrimary: boolean;
  /** A primary stored in the dashboard that the environment's primary overrides. */
  overridden: Provider | null;
  secretKeyConfigured: boolean;
  canManage: boolean;
  isEditing: boolean;
  onEdit: () => void;
};

const roleLabels: Record<ProviderRole, { label: string; purpose: string }> = {
  primary: { label: "Primary", purpose: "Sends every notification while it is healthy." },
  secondary: { label: "Secondary", purpose: "Takes over while the primary's circuit is open." },
};

/** A channel's primary or secondary provider: what it is, where it is set, and how healthy it is. */
export function ProviderSlot(props: ProviderSlotProps) {
  const { channel, role, provider, canManage, isEditing, onEdit } = props;
  const { label, purpose } = roleLabels[role];
  const subject = `${role} ${channelLabel(channel)} provider`;
  const isEditable = canManage && provider?.source !== "environment";

  return (
    <div className="provider-slot">
      <div className="provider-slot-heading">
        <h3 className="provider-role">{label}</h3>
        <p className="provider-purpose">{purpose}</p>
      </div>
      {provider ? <ConfiguredProvider {...props} provider={provider} /> : <EmptySlot {...props} />}
      {isEditable && !isEditing && (
        <div className="provider-actions">
          <Button size="sm" onClick={onEdit}>
            {provider ? "Edit" : "Configure"}
            <span className="visually-hidden"> the {subject}</span>
          </Button>
          {provider && <RemoveProviderButton provider={provider} consequence={removalConsequence(props)} />}
        </div>
      )}
    </div>
  );
}

function ConfiguredProvider({
  provider,
  role,
  hasPrimary,
  overridden,
  secretKeyConfigured,
  canManage,
}: ProviderSlotProps & { provider: Provider }) {
  const fromEnvironment = provider.source === "environment";
  const notes: ReactNode[] = [];
  if (fromEnvironment) {
    const variables = environmentVariables(provider);
    notes.push(
      <>
        Set in the server environment
        {variables.length > 0 && (
          <>
            {" by "}
            {variables.map((variable, index) => (
              <span key={variable}>
                {index > 0 && ", "}
                <code className="code">{variable}</code>
              </span>
            ))}
          </>
        )}
        : change it there and restart Herald.
      </>,
    );
  }
  if (!provider.enabled) notes.push("Disabled: stored but not used for sending.");
  if (role === "secondary" && !hasPrimary) notes.push("Not used: a secondary only takes over from a primary.");
  if (provider.source === "dashboard" && "error" in provider.secrets) {
    notes.push("Its stored secrets do not open with this HERALD_SECRET_KEY: it is skipped until they are saved again.");
  } else if (provider.source === "dashboard" && !secretKeyConfigured) {
    notes.push("Its secrets are sealed: it is skipped until HERALD_SECRET_KEY is set.");
  }

  return (
    <>
      <div className="provider-title">
        <p className="provider-name">{providerKindLabel(provider.kind)}</p>
        <div className="provider-badges">
          {fromEnvironment ? (
            <Badge tone="info" title="Configured by the server's environment variables; read-only here.">
              Set by environment
            </Badge>
          ) : (
            <Badge title="Configured in this dashboard.">Dashboard</Badge>
          )}
          {!provider.enabled && <Badge tone="warning">Disabled</Badge>}
          <BreakerBadge breaker={provider.breaker} />
        </div>
      </div>
      <ProviderFacts provider={provider} />
      {notes.map((note, index) => (
        <p className="provider-note" key={index}>
          {note}
        </p>
      ))}
      {overridden && (
        <div className="provider-overridden">
          <p className="provider-note">
            {`A ${providerKindLabel(overridden.kind)} primary saved in this dashboard is not used while the environment sets one.`}
          </p>
          {canManage && (
            <RemoveProviderButton
              provider={overridden}
              consequence="Sending does not change: the primary set by the environment stays in force."
            />
          )}
        </div>
      )}
    </>
  );
}

function EmptySlot({ channel, role, emptyPrimary }: ProviderSlotProps) {
  if (role === "secondary") {
    return <p className="provider-empty">None: nothing takes over while the primary is failing.</p>;
  }
  if (emptyPrimary === "sandbox") {
    return (
      <>
        <div className="provider-title">
          <p className="provider-name">Sandbox (development)</p>
          <div className="provider-badges">
            <Badge tone="accent" title="Development mode: nothing leaves this server.">
              Sandbox
            </Badge>
          </div>
        </div>
        <p className="provider-note">
          Messages are recorded in the <Link to="/delivery/sandbox">sandbox outbox</Link> and nothing is sent. Its test
          identities answer like the real services.
        </p>
      </>
    );
  }
  return (
    <>
      <div className="provider-title">
        <Badge tone="danger">Not configured — notifications are deferred</Badge>
      </div>
      <p className="provider-note">
        {`${channelLabel(channel)} notifications wait until a provider is configured here or in the server environment.`}
      </p>
    </>
  );
}

/** Where the channel's traffic goes once this slot's provider is gone. */
function removalConsequence({ channel, role, emptyPrimary }: ProviderSlotProps): string {
  const name = channelLabel(channel);
  if (role === "secondary") return `${name} keeps its primary, with nothing to fail over to.`;
  if (emptyPrimary === "sandbox") return `${name} notifications go to the sandbox instead.`;
  return `${name} notifications are deferred until another primary is configured.`;
}

/** The variables that set this provider's values, in the order the form lists its fields. */
function environmentVariables(provider: Provider): string[] {
  const spec = getProviderKindSpec(provider.kind);
  const settings: Record<string, unknown> = provider.settings;
  return [
    ...spec.settings.filter((field) => settings[field.key] != null).map((field) => field.envVar),
    ...spec.secrets.filter((field) => field.key in provider.secrets).map((field) => field.envVar),
  ].filter((variable): variable is string => variable !== undefined);
}
