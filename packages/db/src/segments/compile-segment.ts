import {
  MAX_SEGMENT_NESTING,
  attributePath,
  formatRulePath,
  type ActivityCondition,
  type AttributeCondition,
  type DateValue,
  type ProfileCondition,
  type Rule,
  type RuleCondition,
  type RulePath,
} from "@herald/core";

/** A query whose rows are the segment's members as `user_id`, with its own $1..$n parameters. */
export interface SegmentQuery {
  sql: string;
  params: unknown[];
}

export interface CompileSegmentOptions {
  /** The instant "in the last 7 days" and "30 days ago" count back from. */
  now: Date;
  /** The rule of a segment an "is in segment" condition names; null when there is none. */
  resolveSegment(segmentId: string): Rule | null;
}

/** A rule that cannot become a query: a segment it names is missing, or segments nest too deep. */
export class SegmentCompileError extends Error {
  override name = "SegmentCompileError";
  /** What is wrong, without the path. */
  readonly reason: string;
  /** The node of the compiled rule the trouble was reached from. */
  readonly path: RulePath;
  constructor(reason: string, path: RulePath) {
    super(`${formatRulePath(path)}: ${reason}`);
    this.reason = reason;
    this.path = path;
  }
}

/** Conditions one query may hold once named segments are inlined: bounds what nesting can multiply. */
export const MAX_COMPILED_CONDITIONS = 1_000;

const DAY_MS = 86_400_000;

// Fixed SQL per profile field: the field is checked against this closed set by zod, and the
// column name never comes from the request.
const PROFILE_COLUMN = { email: "u.email", phone: "u.phone", locale: "u.locale", timezone: "u.timezone", external_id: "u.external_id" } as const;
const ADDRESS_COLUMN = { email: "u.email", sms: "u.phone" } as const;

/**
 * Rule → SQL, every value a bound parameter. Each condition renders to a predicate that is never
 * NULL (so `NOT` is plain negation, as in the evaluator): comparisons are wrapped in coalesce(…,
 * false); EXISTS is left bare so the planner can still turn a top-level one into a semi-join.
 */
class Compiler {
  readonly params: unknown[] = [];
  /** Each date attribute's instant, read once per user: attribute name → its LATERAL's alias. */
  readonly instants = new Map<string, { alias: string; sql: string }>();
  private conditions = 0;

  private readonly options: CompileSegmentOptions;
  constructor(options: CompileSegmentOptions) {
    this.options = options;
  }

  bind(value: unknown, type: string): string {
    this.params.push(value);
    return `$${this.params.length}::${type}`;
  }

  rule(rule: Rule, path: RulePath, trail: readonly string[]): string {
    switch (rule.kind) {
      case "and":
      case "or": {
        if (rule.children.length === 0) return rule.kind === "and" ? "true" : "false";
        const parts = rule.children.map((child, index) => this.rule(child, trail.length ? path : [...path, "children", index], trail));
        return `(${parts.join(rule.kind === "and" ? " AND " : " OR ")})`;
      }
      case "not":
        return `NOT ${this.rule(rule.child, trail.length ? path : [...path, "child"], trail)}`;
      default:
        if (++this.conditions > MAX_COMPILED_CONDITIONS) {
          throw new SegmentCompileError(`the rule expands to more than ${MAX_COMPILED_CONDITIONS} conditions through the segments it names`, path);
        }
        return this.condition(rule, path, trail);
    }
  }

  condition(c: RuleCondition, path: RulePath, trail: readonly string[]): string {
    switch (c.kind) {
      case "attribute":
        return this.attribute(c);
      case "profile":
        return this.profile(c);
      case "activity":
        return this.activity(c);
      case "has_active_device":
        return "EXISTS (SELECT 1 FROM herald.devices d WHERE d.user_id = u.id AND d.active)";
      case "has_email":
        return "(u.email IS NOT NULL)";
      case "has_phone":
        return "(u.phone IS NOT NULL)";
      case "not_suppressed": {
        // As the send-time gate matches (herald.evaluate_gates): the address itself, or the hash
        // an erased person's suppression is kept under (decision 0014).
        const channel = this.bind(c.channel, "text");
        if (c.channel === "push") {
          return `NOT EXISTS (SELECT 1 FROM herald.devices d JOIN herald.suppressions s
                                ON s.channel = ${channel} AND s.address IN (d.token, herald.suppression_hash(${channel}, d.token))
                               WHERE d.user_id = u.id AND d.active)`;
        }
        const address = ADDRESS_COLUMN[c.channel];
        // Two anti-joins rather than IN (…): each can be a hash anti-join over the whole table.
        return `(NOT EXISTS (SELECT 1 FROM herald.suppressions s WHERE s.channel = ${channel} AND s.address = ${address})
                 AND NOT EXISTS (SELECT 1 FROM herald.suppressions s WHERE s.channel = ${channel} AND s.address = herald.suppression_hash(${channel}, ${address})))`;
      }
      case "segment": {
        if (trail.includes(c.segmentId)) {
          throw new SegmentCompileError(`segment ${c.segmentId} includes itself (${[...trail, c.segmentId].join(" → ")})`, path);
        }
        if (trail.length >= MAX_SEGMENT_NESTING) {
          throw new SegmentCompileError(`segments nest more than ${MAX_SEGMENT_NESTING} deep (${[...trail, c.segmentId].join(" → ")})`, path);
        }
        const rule = this.options.resolveSegment(c.segmentId);
        if (!rule) throw new SegmentCompileError(`there is no segment ${c.segmentId}`, path);
        // A named segment is inlined: one query, and the planner sees every condition. Every
        // rendering is already atomic (parenthesised, a call or [NOT] EXISTS), so no brackets.
        return this.rule(rule, path, [...trail, c.segmentId]);
      }
    }
  }

  /** The attribute's JSON value: the key as written, else the nested path its dots spell. */
  attributeValue(name: string): string {
    if (!name.includes(".")) return `(u.attributes -> ${this.bind(name, "text")})`;
    return `coalesce(u.attributes -> ${this.bind(name, "text")}, u.attributes #> ${this.bind(attributePath(name), "text[]")})`;
  }

  /**
   * The attribute as an instant, or null when it is not a date (a non-string's text never reads as
   * one). herald.attribute_instant is inlined and reads its argument about fifteen times, so
   * passing it `u.attributes ->> name` looked the key up in the JSON fifteen times per user. The
   * instant is read once per user in a LATERAL subquery instead; OFFSET 0 keeps the planner from
   * pulling it up and copying the expression back into every use (decision 0015).
   */
  attributeInstant(name: string): string {
    let instant = this.instants.get(name);
    if (!instant) {
      const text = name.includes(".") ? `${this.attributeValue(name)} #>> '{}'` : `u.attributes ->> ${this.bind(name, "text")}`;
      const alias = `d${this.instants.size + 1}`;
      instant = { alias, sql: `CROSS JOIN LATERAL (SELECT herald.attribute_instant(${text}) AS at OFFSET 0) ${alias}` };
      this.instants.set(name, instant);
    }
    return `${instant.alias}.at`;
  }

  cutoff(value: DateValue): string {
    if (typeof value === "string") return `herald.attribute_instant(${this.bind(value, "text")})`;
    return this.bind(new Date(this.options.now.getTime() - value.daysAgo * DAY_MS).toISOString(), "timestamptz");
  }

  attribute(c: AttributeCondition): string {
    if (c.op === "before" || c.op === "after" || c.op === "within_last") return this.attributeDate(c);
    const v = this.attributeValue(c.attribute);
    switch (c.op) {
      case "exists":
        return `coalesce(jsonb_typeof(${v}) <> 'null', false)`;
      case "eq":
        return `coalesce(${v} = ${this.bind(JSON.stringify(c.value), "jsonb")}, false)`;
      case "ne":
        return `NOT coalesce(${v} = ${this.bind(JSON.stringify(c.value), "jsonb")}, false)`;
      case "lt":
      case "gt":
        return `coalesce(CASE WHEN jsonb_typeof(${v}) = 'number' THEN (${v})::numeric ${c.op === "lt" ? "<" : ">"} ${this.bind(c.value, "numeric")} END, false)`;
      case "contains": {
        const text = this.bind(c.value, "text");
        return `coalesce(CASE jsonb_typeof(${v}) WHEN 'string' THEN strpos(${v} #>> '{}', ${text}) > 0
                                  WHEN 'array' THEN ${v} @> jsonb_build_array(${text}) END, false)`;
      }
      case "in": {
        const strings = this.bind(c.value.filter((item) => typeof item === "string"), "text[]");
        const values = this.bind(JSON.stringify(c.value), "jsonb");
        // A list attribute is in when any of its items is; a string or number when it equals one.
        return `coalesce(CASE jsonb_typeof(${v}) WHEN 'array' THEN ${v} ?| ${strings}
                                  WHEN 'string' THEN ${values} @> jsonb_build_array(${v})
                                  WHEN 'number' THEN ${values} @> jsonb_build_array(${v}) END, false)`;
      }
    }
  }

  attributeDate(c: Extract<AttributeCondition, { op: "before" | "after" | "within_last" }>): string {
    const instant = this.attributeInstant(c.attribute);
    switch (c.op) {
      case "before":
        return `coalesce(${instant} < ${this.cutoff(c.value)}, false)`;
      case "after":
        return `coalesce(${instant} > ${this.cutoff(c.value)}, false)`;
      case "within_last": {
        const from = new Date(this.options.now.getTime() - c.value * DAY_MS).toISOString();
        // A range, so the date is read once rather than once per bound.
        return `coalesce(tstzrange(${this.bind(from, "timestamptz")}, ${this.bind(this.options.now.toISOString(), "timestamptz")}, '[]') @> ${instant}, false)`;
      }
    }
  }

  profile(c: ProfileCondition): string {
    const column = PROFILE_COLUMN[c.field];
    switch (c.op) {
      case "exists":
        return `(${column} IS NOT NULL)`;
      case "eq":
        return `coalesce(${column} = ${this.bind(c.value, "text")}, false)`;
      case "ne":
        return `NOT coalesce(${column} = ${this.bind(c.value, "text")}, false)`;
      case "contains":
        return `coalesce(strpos(${column}, ${this.bind(c.value, "text")}) > 0, false)`;
      case "in":
        return `coalesce(${column} = ANY (${this.bind(c.value, "text[]")}), false)`;
    }
  }

  /**
   * Whole-history questions ("ever", "never", "at least N times", "none in the last D days") read
   * herald.activity_summaries, one row per user and name kept by triggers (decision 10); only
   * "at least N times in the last D days" needs the raw rows, as EXISTS over
   * activities_user_name_idx stopping at the Nth. "Did X in the last D days" also reads the raw
   * rows: activities_name_time_idx holds just the recent slice, which for a short D is far
   * smaller than every user's summary.
   */
  activity(c: ActivityCondition): string {
    const since = (days: number) => this.bind(new Date(this.options.now.getTime() - days * DAY_MS).toISOString(), "timestamptz");
    const name = this.bind(c.activity, "text");
    const summary = `SELECT 1 FROM herald.activity_summaries s WHERE s.name = ${name} AND s.user_id = u.id`;
    switch (c.op) {
      case "did": {
        if (c.withinDays === undefined) {
          return `EXISTS (${summary}${c.atLeast > 1 ? ` AND s.count >= ${this.bind(c.atLeast, "bigint")}` : ""})`;
        }
        const from = since(c.withinDays);
        // At least N: the Nth matching row exists. The index stops the scan there.
        const offset = c.atLeast > 1 ? ` OFFSET ${this.bind(c.atLeast - 1, "bigint")}` : "";
        return `EXISTS (SELECT 1 FROM herald.activities a WHERE a.user_id = u.id AND a.name = ${name} AND a.occurred_at >= ${from}${offset})`;
      }
      case "did_not":
        return `NOT EXISTS (${summary} AND s.last_at >= ${since(c.withinDays)})`;
      case "never":
        return `NOT EXISTS (${summary})`;
    }
  }
}

/**
 * A segment as ONE parameterised query selecting its members' ids: attribute names, values and
 * cut-off instants are all bound parameters, named segments are inlined. Usable as a sub-select
 * (a fan-out's `INSERT … SELECT`, a count, a dry run), with its parameters numbered from $1.
 */
export function compileSegment(rule: Rule, options: CompileSegmentOptions): SegmentQuery {
  const compiler = new Compiler(options);
  const where = compiler.rule(rule, [], []);
  const laterals = [...compiler.instants.values()].map((i) => ` ${i.sql}`).join("");
  return { sql: `SELECT u.id AS user_id FROM herald.users u${laterals} WHERE ${where}`, params: compiler.params };
}
