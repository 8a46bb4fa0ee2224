import type { inferInput, inferOutput } from "@trpc/tanstack-react-query";
import type { Api } from "../../lib/trpc.ts";

/** What `providers.list` answers: the providers, and whether this instance can store secrets. */
export type ProvidersList = inferOutput<Api["providers"]["list"]>;

/** A configured provider with its health; its secrets are masked ("••••1234"), never in clear. */
export type Provider = ProvidersList["providers"][number];

/** Which of a channel's two providers: the secondary takes over while the primary's breaker is open. */
export type ProviderRole = Provider["role"];

/** SES, Twilio, FCM or a signed webhook. */
export type ProviderKind = Provider["kind"];

/** What `providers.save` takes. */
export type SaveProviderInput = inferInput<Api["providers"]["save"]>;

/** A provider's answer to one test message. */
export type SendTestResult = inferOutput<Api["providers"]["sendTest"]>;
