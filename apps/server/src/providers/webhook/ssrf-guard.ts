import { lookup } from "node:dns/promises";
import net from "node:net";

/** Why an address may not be the target of an outbound request. */
export type BlockedReason = "loopback" | "private" | "link_local" | "cgnat" | "metadata" | "unspecified" | "multicast" | "reserved";

const V4_BLOCKS: Array<[string, number, BlockedReason]> = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "cgnat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.169.254", 32, "metadata"],
  ["169.254.0.0", 16, "link_local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "reserved"],
  ["192.88.99.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"],
  ["198.51.100.0", 24, "reserved"],
  ["203.0.113.0", 24, "reserved"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

function v4ToInt(ip: string): number {
  return ip.split(".").reduce((n, part) => (n << 8) + Number(part), 0) >>> 0;
}

function v4Blocked(ip: string): BlockedReason | null {
  const value = v4ToInt(ip);
  for (const [base, bits, reason] of V4_BLOCKS) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    if ((value & mask) === (v4ToInt(base) & mask)) return reason;
  }
  return null;
}

/** Expands an IPv6 literal to eight 16-bit groups (handles "::" and an embedded IPv4 tail). */
function v6Groups(ip: string): number[] {
  let text = ip.toLowerCase().split("%")[0]!;
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4Tail) {
    const n = v4ToInt(v4Tail[1]!);
    text = text.slice(0, -v4Tail[1]!.length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (s: string) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const t = tail === undefined ? [] : parse(tail);
  return [...h, ...Array(8 - h.length - t.length).fill(0), ...t];
}

function v6Blocked(ip: string): BlockedReason | null {
  const g = v6Groups(ip);
  const embeddedV4 = () => `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  if (g.every((x) => x === 0)) return "unspecified";
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 inside.
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) return v4Blocked(embeddedV4()) ?? null;
  if (g[0] === 0x64 && g[1] === 0xff9b) return v4Blocked(embeddedV4()) ?? null;
  // 6to4 (2002:a.b.c.d::/48) embeds the IPv4 in groups 1 and 2.
  if (g[0] === 0x2002) return v4Blocked(`${g[1]! >> 8}.${g[1]! & 255}.${g[2]! >> 8}.${g[2]! & 255}`);
  if (g[0] === 0xfd00 && g[1] === 0xec2) return "metadata";
  if ((g[0]! & 0xfe00) === 0xfc00) return "private";
  if ((g[0]! & 0xffc0) === 0xfe80) return "link_local";
  if ((g[0]! & 0xff00) === 0xff00) return "multicast";
  if (g[0] === 0x2001 && g[1] === 0xdb8) return "reserved";
  return null;
}

/** Null when `ip` is a public unicast address; otherwise why it is refused. */
export function blockedAddress(ip: string): BlockedReason | null {
  const family = net.isIP(ip);
  if (family === 4) return v4Blocked(ip);
  if (family === 6) return v6Blocked(ip);
  return "reserved";
}

export interface VettedTarget {
  url: URL;
  /** The address the connection must go to: checked once, then pinned (no DNS rebinding). */
  address: string;
  family: 4 | 6;
}

export class SsrfRefusal extends Error {
  override name = "SsrfRefusal";
}

export interface VetOptions {
  /** Hosts an admin explicitly allowed (exact host names or IP literals). */
  allowedHosts: readonly string[];
  resolve?: (host: string) => Promise<Array<{ address: string; family: number }>>;
}

/**
 * Checks an outbound URL before any connection: https only (http only for an explicitly allowed
 * host), no credentials, and every address the name resolves to must be public — the WHATWG URL
 * parser has already normalised decimal, hex, octal and short IPv4 spellings to dotted quads.
 */
export async function vetOutboundUrl(raw: string, options: VetOptions): Promise<VettedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SsrfRefusal("not a URL");
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const allowed = options.allowedHosts.includes(host);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowed)) throw new SsrfRefusal("only https URLs are allowed");
  if (url.username || url.password) throw new SsrfRefusal("URLs with credentials are not allowed");
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await (options.resolve ?? defaultResolve)(host);
  if (addresses.length === 0) throw new SsrfRefusal(`${host} does not resolve`);
  if (!allowed) {
    for (const a of addresses) {
      const reason = blockedAddress(a.address);
      if (reason) throw new SsrfRefusal(`${host} resolves to a ${reason.replace("_", "-")} address (${a.address})`);
    }
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

async function defaultResolve(host: string) {
  try {
    return await lookup(host, { all: true, verbatim: true });
  } catch {
    return [];
  }
}
