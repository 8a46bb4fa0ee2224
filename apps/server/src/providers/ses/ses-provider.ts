import { SESv2Client, SendEmailCommand, type SendEmailCommandInput } from "@aws-sdk/client-sesv2";
import { mapConcurrently } from "../map-concurrently.ts";
import { notCalled, type OutboundMessage, type Provider, type ProviderCallResult } from "../provider.ts";
import { classifySesFailure, sesFailureOf } from "./ses-errors.ts";

/** Amazon SES v2 credentials and sending settings. */
export interface SesConfig {
  /** Provider name (token bucket, breaker, the notification row), e.g. `ses`. */
  name: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Sender, e.g. `Acme <hello@acme.example>`. */
  from: string;
  /** The configuration set whose event destination publishes to the SNS topic `/webhooks/ses` accepts. */
  configurationSetName?: string;
  /** Overrides the SES endpoint (a local fake in tests). */
  endpoint?: string;
}

/** Knobs tests and tuning may turn; the defaults suit production. */
export interface SesProviderOptions {
  /** SendEmail calls in flight at once for one batch. */
  concurrency?: number;
  /** Gives up on a call after this long; the engine retries it. */
  requestTimeoutMs?: number;
  connectionTimeoutMs?: number;
  now?: () => Date;
}

const DEFAULT_CONCURRENCY = 8;
const UTF8 = "UTF-8";

/** The SendEmail request for one message. */
export function sendEmailInput(config: Pick<SesConfig, "from" | "configurationSetName">, message: OutboundMessage): SendEmailCommandInput {
  const headers = Object.entries(message.headers ?? {}).map(([Name, Value]) => ({ Name, Value }));
  return {
    FromEmailAddress: config.from,
    Destination: { ToAddresses: [message.to] },
    Content: {
      Simple: {
        Subject: { Data: message.subject ?? "", Charset: UTF8 },
        Body: {
          Text: { Data: message.body, Charset: UTF8 },
          ...(message.html === undefined ? {} : { Html: { Data: message.html, Charset: UTF8 } }),
        },
        ...(headers.length > 0 ? { Headers: headers } : {}),
      },
    },
    ...(config.configurationSetName ? { ConfigurationSetName: config.configurationSetName } : {}),
    // Lets an operator find the notification from SES's own logs and event records.
    EmailTags: [{ Name: "notification_id", Value: message.notificationId }],
  };
}

/**
 * Email through Amazon SES v2. One `send` call is one attempt per message: the SDK's own retries
 * are off (`maxAttempts: 1`) because the engine owns backoff, attempt counting and the breaker.
 */
export function createSesProvider(config: SesConfig, options: SesProviderOptions = {}): Provider {
  const client = new SESv2Client({
    region: config.region,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    maxAttempts: 1,
    requestHandler: {
      connectionTimeout: options.connectionTimeoutMs ?? 5_000,
      requestTimeout: options.requestTimeoutMs ?? 15_000,
      // Without it the handler only logs a warning and the call waits on.
      throwOnRequestTimeout: true,
    },
  });
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const now = options.now ?? (() => new Date());

  async function sendOne(message: OutboundMessage): Promise<ProviderCallResult> {
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    try {
      const answer = await client.send(new SendEmailCommand(sendEmailInput(config, message)));
      if (!answer.MessageId) {
        // A 2xx without an id is not SES talking (a proxy?): try again rather than lose track.
        return { outcome: { kind: "retry", reason: "malformed_response" }, latencyMs: latencyMs() };
      }
      return { outcome: { kind: "sent", providerMessageId: answer.MessageId }, latencyMs: latencyMs() };
    } catch (error) {
      return { outcome: classifySesFailure(sesFailureOf(error), now()), latencyMs: latencyMs() };
    }
  }

  return {
    name: config.name,
    channel: "email",
    send: (messages, { onResult, signal, permit } = {}) => mapConcurrently(messages, concurrency, sendOne, { onResult, signal, permit, notStarted: notCalled }),
  };
}

