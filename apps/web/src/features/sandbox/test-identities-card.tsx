import { ChannelBadge } from "../../components/ui/channel-badge.tsx";
import { CollapsibleCard } from "../../components/ui/collapsible-card.tsx";
import type { SandboxIdentity } from "../../lib/api-types.ts";
import { channels } from "../../lib/channels.ts";

/** The sandbox's scripted addresses, so people can try bounces and invalid numbers on purpose. */
export function TestIdentitiesCard({ identities }: { identities: SandboxIdentity[] }) {
  return (
    <CollapsibleCard
      title="Test identities"
      description="Give a user one of these as their email, phone or device token to see a bounce, a complaint or a rejected number."
      flush
    >
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Channel</th>
              <th scope="col">What happens</th>
            </tr>
          </thead>
          <tbody>
            {identities.map((identity) => {
              const { channel, meaning } = splitChannel(identity.meaning);
              return (
                <tr key={identity.address}>
                  <td className="cell-nowrap">
                    <code className="code">{identity.address}</code>
                  </td>
                  <td>{channel ? <ChannelBadge channel={channel} /> : <span className="muted">—</span>}</td>
                  <td>{meaning}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </CollapsibleCard>
  );
}

// The server phrases each meaning as "<channel>: what happens"; the channel gets its own column.
function splitChannel(text: string): { channel: string | null; meaning: string } {
  const colon = text.indexOf(": ");
  const channel = colon < 0 ? "" : text.slice(0, colon);
  if (!(channels as readonly string[]).includes(channel)) return { channel: null, meaning: text };
  const meaning = text.slice(colon + 2);
  return { channel, meaning: meaning.charAt(0).toUpperCase() + meaning.slice(1) };
}
