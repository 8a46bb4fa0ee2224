import { createHash, randomBytes } from "node:crypto";

/** A random bearer secret (session cookie, invite link): 32 bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What is stored for a token: its SHA-256. A high-entropy token needs no slow hash. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
