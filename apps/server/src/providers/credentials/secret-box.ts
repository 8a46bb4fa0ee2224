import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const VERSION = 1;

/**
 * AES-256-GCM for provider secrets at rest. The key is derived from HERALD_SECRET_KEY and never
 * stored; the database holds version ‖ iv ‖ tag ‖ ciphertext. A wrong key or a tampered value
 * fails to open, never decrypts to garbage.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    if (secretKey.length < 32) throw new Error("HERALD_SECRET_KEY must be at least 32 characters");
    this.key = createHash("sha256").update(`herald-secret-box:${secretKey}`).digest();
  }

  seal(plaintext: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), ciphertext]);
  }

  open(sealed: Buffer): string {
    if (sealed.length < 29 || sealed[0] !== VERSION) throw new Error("not a sealed secret of a known version");
    const decipher = createDecipheriv("aes-256-gcm", this.key, sealed.subarray(1, 13));
    decipher.setAuthTag(sealed.subarray(13, 29));
    return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString("utf8");
  }
}

/** What the browser sees of a stored secret: that it exists, and its last four characters. */
export function maskSecret(value: string): string {
  return value.length <= 8 ? "••••" : `••••${value.slice(-4)}`;
}
