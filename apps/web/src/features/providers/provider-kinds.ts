import type { Channel } from "../../lib/channels.ts";
import type { ProviderKind } from "./provider-types.ts";

/** One setting or secret of a provider kind, as the form edits it and the card shows it. */
export type ProviderField = {
  key: string;
  label: string;
  /** "list" is a comma-separated input sent as an array; "json" a textarea for a whole document. */
  input: "text" | "url" | "number" | "list" | "json";
  isRequired: boolean;
  placeholder?: string;
  hint?: string;
  /** A quick check for the typos whose server message would be a raw regular expression. */
  pattern?: { regex: RegExp; message: string };
  minLength?: number;
  /** The server variable that sets it when the provider comes from the environment. */
  envVar?: string;
};

/** What the dashboard knows about a kind of provider. */
export type ProviderKindSpec = {
  label: string;
  channels: readonly Channel[];
  settings: ProviderField[];
  secrets: ProviderField[];
  /** Sends per second when the settings do not say. */
  defaultRatePerSecond: number;
  /** Keys of which at least one must be given (Twilio: a from number or a Messaging Service). */
  requireOneOf?: { keys: [string, string]; message: string };
};

// Mirrors DEFAULT_RATE_PER_SECOND and PROVIDER_KINDS in apps/server/src/providers/provider-kinds.ts:
// the form catches typos beside their field, and the server still decides what is valid.
const defaultRates: Record<ProviderKind, number> = { ses: 14, twilio: 100, fcm: 600, webhook: 50 };

function rateField(defaultRate: number): ProviderField {
  return {
    key: "ratePerSecond",
    label: "Sends per second",
    input: "number",
    isRequired: false,
    placeholder: String(defaultRate),
    hint: `Optional; ${defaultRate} when empty. One limit shared by every worker.`,
  };
}

const providerKindSpecs: Record<ProviderKind, ProviderKindSpec> = {
  ses: {
    label: "Amazon SES",
    channels: ["email"],
    settings: [
      {
        key: "region",
        label: "Region",
        input: "text",
        isRequired: true,
        placeholder: "eu-west-1",
        pattern: { regex: /^[a-z]{2}(-[a-z]+)+-\d$/, message: "Enter an AWS region such as eu-west-1." },
        envVar: "HERALD_SES_REGION",
      },
      {
        key: "from",
        label: "From",
        input: "text",
        isRequired: true,
        placeholder: "Acme <hello@acme.example>",
        hint: "A sender address or domain verified in SES.",
        envVar: "HERALD_SES_FROM",
      },
      {
        key: "configurationSetName",
        label: "Configuration set",
        input: "text",
        isRequired: false,
        hint: "Optional. The configuration set that publishes deliveries, bounces and complaints to SNS.",
        envVar: "HERALD_SES_CONFIGURATION_SET",
      },
      {
        key: "endpoint",
        label: "Endpoint",
        input: "url",
        isRequired: false,
        hint: "Optional. Overrides the SES API endpoint, e.g. for a local simulator.",
        envVar: "HERALD_SES_ENDPOINT",
      },
      rateField(defaultRates.ses),
    ],
    defaultRatePerSecond: defaultRates.ses,
    secrets: [
      { key: "accessKeyId", label: "Access key id", input: "text", isRequired: true, minLength: 16, envVar: "HERALD_SES_ACCESS_KEY_ID" },
      {
        key: "secretAccessKey",
        label: "Secret access key",
        input: "text",
        isRequired: true,
        minLength: 16,
        envVar: "HERALD_SES_SECRET_ACCESS_KEY",
      },
    ],
  },
  twilio: {
    label: "Twilio",
    channels: ["sms"],
    settings: [
      {
        key: "from",
        label: "From",
        input: "text",
        isRequired: false,
        placeholder: "+15005550006",
        hint: "A number in E.164 form. Leave it empty to send through a Messaging Service instead.",
        pattern: { regex: /^\+[1-9]\d{6,14}$/, message: "Enter the number in E.164 form: + then 7 to 15 digits, e.g. +15005550006." },
        envVar: "HERALD_TWILIO_FROM",
      },
      {
        key: "messagingServiceSid",
        label: "Messaging Service SID",
        input: "text",
        isRequired: false,
        placeholder: "MG…",
        hint: "Preferred over a from number when both are given.",
        pattern: { regex: /^MG[0-9a-fA-F]{32}$/, message: "Enter MG followed by 32 hexadecimal characters." },
        envVar: "HERALD_TWILIO_MESSAGING_SERVICE_SID",
      },
      {
        key: "baseUrl",
        label: "API base URL",
        input: "url",
        isRequired: false,
        hint: "Optional. Overrides Twilio's API origin, e.g. for a local simulator.",
        envVar: "HERALD_TWILIO_BASE_URL",
      },
      rateField(defaultRates.twilio),
    ],
    defaultRatePerSecond: defaultRates.twilio,
    secrets: [
      {
        key: "accountSid",
        label: "Account SID",
        input: "text",
        isRequired: true,
        placeholder: "AC…",
        pattern: { regex: /^AC[0-9a-fA-F]{32}$/, message: "Enter AC followed by 32 hexadecimal characters." },
        envVar: "HERALD_TWILIO_ACCOUNT_SID",
      },
      { key: "authToken", label: "Auth token", input: "text", isRequired: true, minLength: 16, envVar: "HERALD_TWILIO_AUTH_TOKEN" },
    ],
    requireOneOf: { keys: ["from", "messagingServiceSid"], message: "Give a from number or a Messaging Service SID." },
  },
  fcm: {
    label: "Firebase Cloud Messaging",
    channels: ["push"],
    settings: [
      {
        key: "endpoint",
        label: "Endpoint",
        input: "url",
        isRequired: false,
        hint: "Optional. Overrides the FCM v1 API origin, e.g. for a local simulator.",
        envVar: "HERALD_FCM_ENDPOINT",
      },
      {
        key: "tokenEndpoint",
        label: "OAuth token endpoint",
        input: "url",
        isRequired: false,
        hint: "Optional. Sends the OAuth token exchange here instead of oauth2.googleapis.com, e.g. a local simulator.",
        envVar: "HERALD_FCM_TOKEN_ENDPOINT",
      },
      rateField(defaultRates.fcm),
    ],
    defaultRatePerSecond: defaultRates.fcm,
    secrets: [
      {
        key: "serviceAccount",
        label: "Service account JSON",
        input: "json",
        isRequired: true,
        hint: "The whole key file from Firebase console → Project settings → Service accounts.",
        envVar: "HERALD_FCM_SERVICE_ACCOUNT",
      },
    ],
  },
  webhook: {
    label: "Webhook",
    channels: ["email", "sms", "push"],
    settings: [
      {
        key: "url",
        label: "URL",
        input: "url",
        isRequired: true,
        placeholder: "https://hooks.example.com/herald",
        hint: "Herald POSTs each message here as signed JSON with an idempotency key. HTTPS only.",
      },
      {
        key: "allowedHosts",
        label: "Allowed hosts",
        input: "list",
        isRequired: false,
        placeholder: "relay.internal, 10.0.0.12",
        hint: "Optional, comma-separated. Hosts that may be private or plain HTTP; every other host must be public.",
      },
      rateField(defaultRates.webhook),
    ],
    defaultRatePerSecond: defaultRates.webhook,
    secrets: [
      {
        key: "signingSecret",
        label: "Signing secret",
        input: "text",
        isRequired: true,
        minLength: 32,
        hint: "At least 32 characters. The receiver checks each request's signature with it.",
      },
    ],
  },
};

/** Native services first: a webhook is the fallback for whatever Herald has no adapter for. */
const kindOrder: ProviderKind[] = ["ses", "twilio", "fcm", "webhook"];

export function getProviderKindSpec(kind: ProviderKind): ProviderKindSpec {
  return providerKindSpecs[kind];
}

export function providerKindLabel(kind: ProviderKind): string {
  return providerKindSpecs[kind].label;
}

/** The kinds that can serve a channel, in the order the kind picker lists them. */
export function kindsForChannel(channel: Channel): ProviderKind[] {
  return kindOrder.filter((kind) => providerKindSpecs[kind].channels.includes(channel));
}

/** The kind picker's value, or null for one the dashboard does not know. */
export function parseProviderKind(value: string): ProviderKind | null {
  return kindOrder.find((kind) => kind === value) ?? null;
}
