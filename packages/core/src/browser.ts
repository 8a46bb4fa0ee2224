/*
 * The dashboard's entry: the pure pieces a browser needs (rule trees, schedules, reason codes,
 * locale and SMS arithmetic), without the template renderer. Rendering pulls in liquidjs and
 * sanitize-html, which the server runs and a browser never should; test/browser-entry.test.ts
 * keeps them out of everything this file reaches.
 */
export * from "./access/roles.ts";
export * from "./channels/channels.ts";
export * from "./notifications/status.ts";
export * from "./notifications/reason-codes.ts";
export * from "./time/time-zone.ts";
export * from "./time/wall-time.ts";
export * from "./templates/locales.ts";
export * from "./templates/template-variables.ts";
export * from "./templates/sms-segments.ts";
export * from "./templates/push-payload-limit.ts";
export type { RenderedChannel, RenderedEmail, RenderedPush, RenderedSms } from "./templates/render-template.ts";
export * from "./segments/rule-tree.ts";
export * from "./segments/parse-rule.ts";
export * from "./segments/attribute-dates.ts";
export * from "./segments/describe-rule.ts";
export * from "./segments/segment-presets.ts";
export * from "./segments/segment-references.ts";
export * from "./broadcasts/broadcast-status.ts";
export * from "./analytics/rates.ts";
export * from "./analytics/analytics-filter.ts";
