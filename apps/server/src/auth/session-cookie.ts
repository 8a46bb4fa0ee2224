import type { Request, Response } from "express";

export const SESSION_COOKIE = "herald_session";

export function readCookie(req: Request, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

export interface CookiePolicy {
  /** Secure is set whenever the public URL is https (behind TLS). */
  secure: boolean;
}

export function setSessionCookie(res: Response, token: string, maxAgeSeconds: number, policy: CookiePolicy): void {
  res.append("Set-Cookie", serialize(token, maxAgeSeconds, policy));
}

export function clearSessionCookie(res: Response, policy: CookiePolicy): void {
  res.append("Set-Cookie", serialize("", 0, policy));
}

function serialize(value: string, maxAgeSeconds: number, policy: CookiePolicy): string {
  const parts = [`${SESSION_COOKIE}=${encodeURIComponent(value)}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAgeSeconds}`];
  if (policy.secure) parts.push("Secure");
  return parts.join("; ");
}
