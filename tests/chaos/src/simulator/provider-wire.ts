import { createHash, randomBytes } from "node:crypto";

/** The services the simulator speaks; `oauth` is Google's token endpoint FCM's credential calls. */
export type SimulatedProvider = "ses" | "twilio" | "fcm" | "oauth";

/** What the simulator reads from one request, whatever the provider. */
export interface WireRequest {
  provider: SimulatedProvider | null;
  /** Herald's notification id when the request carries it (SES's EmailTags, FCM's data). */
  notificationId: string | null;
  /** The recipient: an email address, an E.164 number or a device token. */
  address: string | null;
  bodyHash: string;
}

const SES_SEND = /^\/v2\/email\/outbound-emails\/?$/;
const TWILIO_CREATE = /^\/2010-04-01\/Accounts\/(AC[0-9a-fA-F]{32})\/Messages\.json$/;
const FCM_SEND = /^\/v1\/projects\/([a-z0-9-]+)\/messages:send$/;

/** Recognises a provider call by method and path, and reads the ids the ledger keeps. */
export function readWireRequest(method: string, path: string, body: string): WireRequest {
  const bodyHash = createHash("sha256").update(body).digest("hex");
  const none = { provider: null, notificationId: null, address: null, bodyHash };
  if (method !== "POST") return none;
  const pathname = path.split("?")[0]!;
  if (SES_SEND.test(pathname)) {
    const json = parseJson(body) as { Destination?: { ToAddresses?: string[] }; EmailTags?: Array<{ Name: string; Value: string }> } | null;
    const tag = json?.EmailTags?.find((t) => t.Name === "notification_id");
    return { provider: "ses", notificationId: tag?.Value ?? null, address: json?.Destination?.ToAddresses?.[0] ?? null, bodyHash };
  }
  if (TWILIO_CREATE.test(pathname)) {
    // Twilio's create carries no id of Herald's: the ledger resolves it from the number later.
    return { provider: "twilio", notificationId: null, address: new URLSearchParams(body).get("To"), bodyHash };
  }
  if (FCM_SEND.test(pathname)) {
    const json = parseJson(body) as { message?: { token?: string; data?: Record<string, string> } } | null;
    return { provider: "fcm", notificationId: json?.message?.data?.notification_id ?? null, address: json?.message?.token ?? null, bodyHash };
  }
  if (pathname === "/token") return { provider: "oauth", notificationId: null, address: null, bodyHash };
  return none;
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

/** An HTTP answer on the wire. */
export interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The provider's success answer, as its SDK expects it. */
export function acceptedAnswer(provider: SimulatedProvider, path: string, seq: number): WireAnswer {
  const json = { "content-type": "application/json" };
  switch (provider) {
    case "ses":
      return { status: 200, headers: json, body: JSON.stringify({ MessageId: `sim-${seq}-${randomBytes(4).toString("hex")}` }) };
    case "twilio": {
      const accountSid = TWILIO_CREATE.exec(path.split("?")[0]!)?.[1] ?? "";
      const sid = `SM${randomBytes(16).toString("hex")}`;
      return { status: 201, headers: json, body: JSON.stringify({ sid, account_sid: accountSid, status: "queued", uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json` }) };
    }
    case "fcm": {
      const project = FCM_SEND.exec(path.split("?")[0]!)?.[1] ?? "project";
      return { status: 200, headers: json, body: JSON.stringify({ name: `projects/${project}/messages/sim-${seq}` }) };
    }
    case "oauth":
      return { status: 200, headers: json, body: JSON.stringify({ access_token: `ya29.sim-${seq}`, expires_in: 3599, token_type: "Bearer" }) };
  }
}

/** An error answer in the provider's own shape (the bodies of the fixtures in /work/shared/fixtures/providers). */
export function errorAnswer(provider: SimulatedProvider, status: number, headers: Record<string, string> = {}): WireAnswer {
  const json = { "content-type": "application/json", ...headers };
  switch (provider) {
    case "ses": {
      const type = status === 429 ? "TooManyRequestsException" : status >= 500 ? "InternalServiceErrorException" : status === 403 ? "AccessDeniedException" : "BadRequestException";
      return { status, headers: { ...json, "x-amzn-ErrorType": type }, body: JSON.stringify({ message: `simulated ${status}` }) };
    }
    case "twilio": {
      const code = status === 429 ? 20429 : status === 401 ? 20003 : status >= 500 ? 20500 : 21211;
      return { status, headers: json, body: JSON.stringify({ code, message: `simulated ${status}`, more_info: `https://www.twilio.com/docs/errors/${code}`, status }) };
    }
    case "fcm": {
      const errorCode = status === 429 ? "QUOTA_EXCEEDED" : status >= 500 ? "UNAVAILABLE" : status === 404 ? "UNREGISTERED" : "INVALID_ARGUMENT";
      const grpc = status === 429 ? "RESOURCE_EXHAUSTED" : status >= 500 ? "UNAVAILABLE" : "INVALID_ARGUMENT";
      const details = [{ "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode }];
      return { status, headers: json, body: JSON.stringify({ error: { code: status, message: `simulated ${status}`, status: grpc, details } }) };
    }
    case "oauth":
      return { status, headers: json, body: JSON.stringify({ error: status >= 500 ? "internal_failure" : "invalid_grant", error_description: `simulated ${status}` }) };
  }
}
