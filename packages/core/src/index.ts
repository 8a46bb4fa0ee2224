export { ROLES, RoleSchema, PUBLIC, SIGNED_IN, type Role } from "./access/roles.ts";
export {
  parseRolesDocument,
  capabilitiesOf,
  decideAccess,
  type AccessTable,
  type AccessDecision,
} from "./access/roles-document.ts";
export { plainText, EmailSchema, PasswordSchema, hasControlCharacters } from "./validation/text.ts";
export { CHANNELS, ChannelSchema, LANES, LaneSchema, PLATFORMS, PlatformSchema, type Channel, type Lane, type Platform } from "./channels/channels.ts";
export {
  STATUSES,
  StatusSchema,
  STATUS_TABLE,
  statusRank,
  isSettled,
  advanceStatus,
  DISPATCH_STATES,
  DispatchStateSchema,
  DISPATCH_STATE_MEANINGS,
  type Status,
  type StatusInfo,
  type StatusReport,
  type DispatchState,
} from "./notifications/status.ts";
export {
  FIXED_REASON_CODES,
  UNREACHABLE_KINDS,
  REASON_CODES,
  ReasonCodeSchema,
  isReasonCode,
  reasonCodeKey,
  suppressedReason,
  unreachableReason,
  renderFailedReason,
  providerRejectedReason,
  describeReason,
  type ReasonCode,
  type ReasonCodeKey,
  type ReasonCodeInfo,
  type ReasonGate,
  type ReasonSettles,
  type FixedReasonCode,
  type UnreachableKind,
} from "./notifications/reason-codes.ts";
export {
  explainVerdict,
  EXPLAIN_STEPS,
  type ExplainInput,
  type Explanation,
  type ExplainedStep,
  type ExplainStep,
  type GateDetail,
} from "./notifications/explain-verdict.ts";
export { SUPPRESSION_REASONS, SuppressionReasonSchema, type SuppressionReason } from "./suppressions/suppression-reasons.ts";
export {
  DEFAULT_RETRY_POLICY,
  backoffDelayMs,
  retryDelayMs,
  decideAfterFailure,
  type RetryPolicy,
  type RetryDecision,
  type FailureContext,
} from "./retry/backoff.ts";
export {
  SendOutcomeSchema,
  assertNever,
  classifyHttpStatus,
  isBackpressure,
  parseRetryAfter,
  type SendOutcome,
  type RetryOutcome,
  type HttpFailureOutcome,
} from "./outcomes/send-outcome.ts";
export { isTimeZone, TimeZoneSchema } from "./time/time-zone.ts";
export { ActivityKeySchema, ActivityNameSchema, OccurredAtSchema } from "./audience/activity-fields.ts";
export { DeviceTokenSchema } from "./audience/device-fields.ts";
export { toWallTime, fromWallTime, addWallDays, type WallTime } from "./time/wall-time.ts";
export {
  ClockTimeSchema,
  parseClockTime,
  QuietWindowSchema,
  isInQuietWindow,
  quietWindowEnd,
  type ClockTime,
  type QuietWindow,
  type QuietWindowTimes,
} from "./quiet-hours/quiet-hours.ts";
export {
  InlineContentSchema,
  findPlaceholders,
  renderInlineContent,
  type InlineContent,
  type RenderedContent,
  type RenderResult,
  type RenderScope,
} from "./content/inline-content.ts";
export {
  CategoryKeySchema,
  CategoryInputSchema,
  FrequencyCapSchema,
  type CategoryKey,
  type CategoryInput,
  type FrequencyCap,
} from "./config/categories.ts";
export {
  NotificationTypeKeySchema,
  TemplateKeySchema,
  ChannelStepSchema,
  NotificationTypeInputSchema,
  type NotificationTypeKey,
  type TemplateKey,
  type ChannelStep,
  type NotificationTypeInput,
} from "./config/notification-types.ts";
export {
  E164Schema,
  LocaleSchema,
  ExternalIdSchema,
  AttributesSchema,
  QuietHoursOverrideSchema,
  QuietHoursInputSchema,
  PreferenceInputSchema,
  type AttributeValue,
  type Attributes,
  type QuietHoursOverride,
  type QuietHoursInput,
  type PreferenceInput,
} from "./config/audience.ts";
export {
  CLOSED_BREAKER,
  DEFAULT_BREAKER_POLICY,
  breakerAdmits,
  markTrial,
  recordBreakerResult,
  type BreakerState,
  type BreakerPolicy,
  type BreakerResult,
  type BreakerTransition,
  type BreakerUpdate,
} from "./resilience/circuit-breaker.ts";
export {
  SANDBOX_IDENTITIES,
  sandboxScript,
  type SandboxScript,
  type SandboxImmediate,
  type SandboxEvent,
} from "./sandbox/sandbox-identities.ts";
export { canonicalLocale, LocaleTagSchema, localeFallbackChain, resolveLocale } from "./templates/locales.ts";
export {
  VARIABLE_TYPES,
  MAX_TEMPLATE_VARIABLES,
  TemplateVariableSchema,
  TemplateVariablesSchema,
  type VariableType,
  type TemplateVariable,
} from "./templates/template-variables.ts";
export {
  MAX_EMAIL_HTML_BYTES,
  MAX_EMAIL_TEXT_BYTES,
  MAX_TEMPLATE_LOCALES,
  MAX_PUSH_DATA_KEYS,
  PushContentSchema,
  EmailContentSchema,
  SmsContentSchema,
  LocaleContentSchema,
  TemplateContentSchema,
  TemplateBodySchema,
  TemplateMetaSchema,
  type PushContent,
  type EmailContent,
  type SmsContent,
  type LocaleContent,
  type TemplateContent,
  type TemplateBody,
  type TemplateMeta,
} from "./templates/template-content.ts";
export { MAX_PUSH_PAYLOAD_BYTES } from "./templates/push-payload-limit.ts";
export { MAX_SMS_SEGMENTS, smsSegments, type SmsSegments } from "./templates/sms-segments.ts";
export { parseLiquid, liquidVariables, MAX_LIQUID_OUTPUT_BYTES, type LiquidMode, type LiquidSyntaxError } from "./templates/liquid.ts";
export {
  renderTemplate,
  type TemplateProblemCode,
  type TemplateProblem,
  type RenderedPush,
  type RenderedEmail,
  type RenderedSms,
  type RenderedChannel,
  type TemplateRenderResult,
  type RenderTemplateInput,
} from "./templates/render-template.ts";
export { checkTemplate, exampleScope } from "./templates/check-template.ts";
export { sanitizeEmailHtml } from "./templates/sanitize-email-html.ts";
export { htmlToText } from "./templates/html-to-text.ts";
export { diffLines, type DiffLine } from "./templates/diff-lines.ts";
export { templateFields, diffTemplates, summarizeDiff, type FieldDiff, type DiffSummary } from "./templates/template-diff.ts";
export {
  BroadcastInputSchema,
  BroadcastScheduleSchema,
  BroadcastVariantSchema,
  type BroadcastInput,
  type BroadcastSchedule,
  type BroadcastVariant,
} from "./broadcasts/broadcast-input.ts";
export { BROADCAST_STATUSES, BROADCAST_ACTIONS, checkBroadcastAction, type BroadcastStatus, type BroadcastAction } from "./broadcasts/broadcast-status.ts";
export { twoProportionZTest, normalCdf, MIN_TRIALS, type Proportion, type ZTestResult } from "./broadcasts/z-test.ts";
export { funnelOf, broadcastReport, reportCsv, type ProgressSlice, type Funnel, type BroadcastReport, type VariantComparison } from "./broadcasts/broadcast-funnel.ts";
export {
  IMPORT_KINDS,
  USER_FIELDS,
  ATTRIBUTE_TYPES,
  IMPORT_SAMPLE_ROWS,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_ATTRIBUTES,
  AttributeColumnSchema,
  ImportMappingSchema,
  mappingProblem,
  type ImportKind,
  type UserField,
  type AttributeType,
  type AttributeColumn,
  type ImportMapping,
  type UsersMapping,
  type SuppressionsMapping,
  type OptOutsMapping,
  type DevicesMapping,
  type ActivitiesMapping,
  uniqueColumn,
} from "./imports/import-mapping.ts";
export {
  createRowChecker,
  type ImportedUser,
  type ImportedSuppression,
  type ImportedOptOut,
  type ImportedDevice,
  type ImportedActivity,
  ACTIVITY_CLOCK_SKEW_MS,
  type ImportedRecord,
  type RowOutcome,
} from "./imports/check-import-row.ts";
export { trimCell, parseNumberCell, parseBooleanCell, parseDateCell, compactPhone } from "./imports/import-cells.ts";
export { IMPORT_DELIMITERS, sniffDelimiter, type ImportDelimiter } from "./imports/sniff-delimiter.ts";
export { csvLine } from "./imports/csv-line.ts";
export {
  MAX_RULE_DEPTH,
  MAX_RULE_CONDITIONS,
  MAX_RULE_GROUPS,
  MAX_RULE_BYTES,
  MAX_RULE_DAYS,
  MAX_IN_VALUES,
  ATTRIBUTE_NAME_PATTERN,
  ACTIVITY_NAME_PATTERN,
  RULE_GROUP_KINDS,
  RULE_CONDITION_KINDS,
  ATTRIBUTE_OPS,
  PROFILE_FIELDS,
  PROFILE_OPS,
  ACTIVITY_OPS,
  type Rule,
  type RuleCondition,
  type AttributeCondition,
  type ProfileCondition,
  type ActivityCondition,
  type ReachabilityCondition,
  type SegmentCondition,
  type AttributeOp,
  type ProfileField,
  type ProfileOp,
  type DateValue,
} from "./segments/rule-tree.ts";
export { RuleSchema, parseRule, formatRulePath, describeRuleProblems, type RulePath, type RuleProblem, type ParsedRule } from "./segments/parse-rule.ts";
export { parseAttributeInstant } from "./segments/attribute-dates.ts";
export { attributePath } from "./segments/attribute-value.ts";
export { describeRule } from "./segments/describe-rule.ts";
export { evaluateRule, type SegmentSubject, type RuleEvaluationContext } from "./segments/evaluate-rule.ts";
export { SEGMENT_PRESETS, type SegmentPreset } from "./segments/segment-presets.ts";
export { MAX_SEGMENT_NESTING, segmentReferences, findSegmentCycle, type SegmentReference } from "./segments/segment-references.ts";
export { rate, ratesOf, formatRate, RATE_THRESHOLDS, type RateCounters, type Rates } from "./analytics/rates.ts";
export {
  AnalyticsFilterSchema,
  GranularitySchema,
  MAX_ANALYTICS_DAYS,
  addDays,
  bucketsBetween,
  dayIn,
  daysBetween,
  weekStart,
  type AnalyticsFilterInput,
  type Granularity,
} from "./analytics/analytics-filter.ts";
export {
  evaluateAlertConditions,
  MIN_RATE_VOLUME,
  type AlertCondition,
  type AlertKind,
  type AlertMeasures,
  type AlertThresholds,
} from "./alerts/alert-conditions.ts";
