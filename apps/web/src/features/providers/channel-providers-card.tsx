import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { channelLabel, type Channel } from "../../lib/channels.ts";
import { ProviderForm } from "./provider-form.tsx";
import { providerKindLabel } from "./provider-kinds.ts";
import { ProviderSlot } from "./provider-slot.tsx";
import type { Provider, ProviderRole, ProvidersList } from "./provider-types.ts";
import { SendTestForm, type TestTarget } from "./send-test-form.tsx";

/** Below the two slots, at most one thing at a time: a provider's form or the test message. */
type Panel = { type: "edit"; role: ProviderRole } | { type: "test" } | null;

/** A channel's primary and secondary providers, with what sends its notifications right now. */
export function ChannelProvidersCard({ channel, list, canManage }: { channel: Channel; list: ProvidersList; canManage: boolean }) {
  const [panel, setPanel] = useState<Panel>(null);
  const name = channelLabel(channel);
  const providers = list.providers.filter((provider) => provider.channel === channel);
  const find = (role: ProviderRole, source: Provider["source"]) =>
    providers.find((provider) => provider.role === role && provider.source === source) ?? null;

  // The same precedence as the server's registry: the environment's primary wins over the
  // dashboard's, and only the dashboard sets a secondary.
  const environmentPrimary = find("primary", "environment");
  const primary = environmentPrimary ?? find("primary", "dashboard");
  const secondary = find("secondary", "dashboard");
  // Skipped by the server: disabled, or sealed with a HERALD_SECRET_KEY it does not have.
  const isInForce = (provider: Provider | null): provider is Provider =>
    provider !== null &&
    provider.enabled &&
    !(provider.source === "dashboard" && (!list.secretKeyConfigured || "error" in provider.secrets));
  const activePrimary = isInForce(primary) ? primary : null;
  const activeSecondary = isInForce(secondary) ? secondary : null;
  const isRouted = !list.unconfiguredChannels.includes(channel);
  const hasPrimary = activePrimary !== null || list.sandboxFallback;

  const targets: TestTarget[] = [
    { role: "primary", label: activePrimary ? providerKindLabel(activePrimary.kind) : "Sandbox" },
    ...(activeSecondary && hasPrimary ? [{ role: "secondary" as const, label: providerKindLabel(activeSecondary.kind) }] : []),
  ];
  const slot = {
    channel,
    emptyPrimary: list.sandboxFallback ? ("sandbox" as const) : ("deferred" as const),
    hasPrimary,
    secretKeyConfigured: list.secretKeyConfigured,
    canManage,
  };

  return (
    <Card
      title={name}
      description={describeRoute({ isRouted, activePrimary, activeSecondary })}
      actions={
        // sendTest goes through the channel's route: a channel without one has nothing to test.
        canManage &&
        isRouted &&
        panel?.type !== "test" && (
          <Button size="sm" onClick={() => setPanel({ type: "test" })}>
            Send test
            <span className="visually-hidden"> {name} message</span>
          </Button>
        )
      }
    >
      <div className="provider-slots">
        <ProviderSlot
          {...slot}
          role="primary"
          provider={primary}
          overridden={environmentPrimary ? find("primary", "dashboard") : null}
          isEditing={panel?.type === "edit" && panel.role === "primary"}
          onEdit={() => setPanel({ type: "edit", role: "primary" })}
        />
        <ProviderSlot
          {...slot}
          role="secondary"
          provider={secondary}
          overridden={null}
          isEditing={panel?.type === "edit" && panel.role === "secondary"}
          onEdit={() => setPanel({ type: "edit", role: "secondary" })}
        />
      </div>
      {panel?.type === "edit" && (
        <ProviderForm
          // A fresh form per slot: switching from Primary to Secondary must not carry a draft across.
          key={panel.role}
          channel={channel}
          role={panel.role}
          existing={find(panel.role, "dashboard")}
          secretKeyConfigured={list.secretKeyConfigured}
          onClose={() => setPanel(null)}
        />
      )}
      {panel?.type === "test" && <SendTestForm channel={channel} targets={targets} onClose={() => setPanel(null)} />}
    </Card>
  );
}

function describeRoute({
  isRouted,
  activePrimary,
  activeSecondary,
}: {
  isRouted: boolean;
  activePrimary: Provider | null;
  activeSecondary: Provider | null;
}): string {
  if (!isRouted) return "Not configured: notifications are deferred until a provider is set.";
  const through = activePrimary ? `Sent through ${providerKindLabel(activePrimary.kind)}` : "Sent to the sandbox";
  if (!activeSecondary) return `${through}.`;
  return `${through}; ${providerKindLabel(activeSecondary.kind)} takes over while it is failing.`;
}
