import { createHmac } from "node:crypto";

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** A client-API token as a customer's backend mints it (HS256 unless `header` says otherwise). */
export function clientJwt(payload: Record<string, unknown>, secret: string, header: Record<string, unknown> = { alg: "HS256", typ: "JWT" }): string {
  const unsigned = `${b64(header)}.${b64(payload)}`;
  return `${unsigned}.${createHmac("sha256", secret).update(unsigned).digest("base64url")}`;
}
