import { argon2, randomBytes, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const argon2Async = promisify(argon2);

/** OWASP's minimum for argon2id: 19 MiB of memory, 2 passes, 1 lane. */
export const ARGON2_PARAMS = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;

/** Hashes a password to a PHC string: $argon2id$v=19$m=…,t=…,p=…$salt$hash. */
export async function hashPassword(password: string): Promise<string> {
  const nonce = randomBytes(16);
  const hash = await argon2Async("argon2id", { message: password, nonce, ...ARGON2_PARAMS });
  const { memory: m, passes: t, parallelism: p } = ARGON2_PARAMS;
  return `$argon2id$v=19$m=${m},t=${t},p=${p}$${b64(nonce)}$${b64(hash)}`;
}

export async function verifyPassword(password: string, phc: string): Promise<boolean> {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(phc);
  if (!match) return false;
  const [, m, t, p, salt, expected] = match;
  const want = Buffer.from(expected!, "base64");
  const got = await argon2Async("argon2id", {
    message: password,
    nonce: Buffer.from(salt!, "base64"),
    memory: Number(m),
    passes: Number(t),
    parallelism: Number(p),
    tagLength: want.length,
  });
  return got.length === want.length && timingSafeEqual(got, want);
}

/**
 * A hash of nothing anyone knows: verifying against it when an account does not exist costs
 * the same time as a real check, so timing does not tell which accounts exist.
 */
export const DECOY_HASH = await hashPassword(randomBytes(32).toString("hex"));

function b64(buffer: Buffer): string {
  return buffer.toString("base64").replace(/=+$/, "");
}
