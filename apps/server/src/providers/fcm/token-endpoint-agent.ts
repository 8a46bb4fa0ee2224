import https from "node:https";
import net from "node:net";
import tls from "node:tls";

/**
 * The agent firebase-admin's credential sends its OAuth token exchange through, connecting to
 * `origin` instead of oauth2.googleapis.com. google-auth-library has the token URL hard-coded;
 * moving only the socket keeps its whole exchange (the signed JWT, the form post, the cache and
 * its refresh) the code that runs in production. Plain TCP for an `http:` origin.
 */
export function tokenEndpointAgent(origin: string): https.Agent {
  const url = new URL(origin);
  const secure = url.protocol === "https:";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = Number(url.port || (secure ? 443 : 80));
  class RedirectingAgent extends https.Agent {
    override createConnection(): net.Socket {
      return secure ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
    }
  }
  return new RedirectingAgent({ keepAlive: true });
}

/**
 * Gives firebase-admin's credential the agent for its token requests. cert(account, agent)
 * would be the public way, but firebase-admin 14 builds the google-auth-library client of a
 * service-account *object* without its client options, so that agent is never used: set it on
 * the client's transporter instead, and fail loudly if that shape ever changes.
 */
export function redirectTokenExchange(credential: object, agent: https.Agent): void {
  transporterDefaults(credential).agent = agent;
}

/**
 * Gives up on a token request after `timeoutMs`. gaxios has no timeout of its own, so a token
 * endpoint that accepted the connection and never answered held the push batch, its job lock
 * and its consent hold for good.
 */
export function limitTokenExchange(credential: object, timeoutMs: number): void {
  transporterDefaults(credential).timeout = timeoutMs;
}

function transporterDefaults(credential: object): Record<string, unknown> {
  const internals = credential as { getGoogleAuth?: () => unknown; authClient?: { transporter?: { defaults?: Record<string, unknown> } } };
  internals.getGoogleAuth?.();
  const defaults = internals.authClient?.transporter?.defaults;
  if (!defaults) throw new Error("firebase-admin's credential has changed shape: the FCM token exchange cannot be configured");
  return defaults;
}
