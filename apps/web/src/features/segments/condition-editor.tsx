import { ATTRIBUTE_OPS, PROFILE_FIELDS, PROFILE_OPS, type AttributeOp, type ProfileField, type ProfileOp } from "@herald/core/browser";
import { useId, type ComponentProps, type ReactNode } from "react";
import { SegmentPicker } from "../../components/pickers/segment-picker.tsx";
import { Button } from "../../components/ui/button.tsx";
import { classNames } from "../../lib/class-names.ts";
import { problemKey, type ActivityOp, type ConditionDraft, type ConditionKind, type DraftInput, type DraftProblems, type SuppressionChannel, type ValueType } from "./rule-draft.ts";
import {
  ACTIVITY_OP_LABELS,
  ATTRIBUTE_OP_LABELS,
  CONDITION_KINDS,
  PROFILE_FIELD_LABELS,
  PROFILE_OP_LABELS,
  SUPPRESSION_CHANNELS,
} from "./rule-labels.ts";

/** What a condition may pick from: names seen in the data; other segments come from a searching picker. */
export type BuilderChoices = {
  attributeListId: string;
  /** The kind of value each seen attribute mostly holds: "number", "date", "boolean"… */
  attributeKinds: ReadonlyMap<string, string>;
  activityListId: string;
  /** The segment being edited: a rule cannot name itself. */
  excludeSegmentId: string | null;
};

type Props = {
  condition: ConditionDraft;
  /** "condition 3": names every control of the row, which must each have their own name. */
  name: string;
  problems: DraftProblems;
  choices: BuilderChoices;
  readOnly: boolean;
  onChange: (condition: ConditionDraft) => void;
  onRemove: () => void;
};

/** One row of the builder: what kind of condition, then the inputs that kind needs. */
export function ConditionEditor({ condition: c, name, problems, choices, readOnly, onChange, onRemove }: Props) {
  const errorBase = useId();
  const set = (patch: Partial<ConditionDraft>) => onChange({ ...c, ...patch });
  const inputs: Array<{ input: DraftInput; message: string }> = (["attribute", "activity", "atLeast", "withinDays", "value", "segmentId", "node"] as const).flatMap(
    (input) => {
      const message = problems.get(problemKey(c.id, input));
      return message ? [{ input, message }] : [];
    },
  );
  const control = (input: DraftInput, label: string) => {
    const invalid = problems.has(problemKey(c.id, input));
    return {
      "aria-label": `${label} (${name})`,
      "aria-invalid": invalid || undefined,
      "aria-describedby": invalid ? `${errorBase}-${input}` : undefined,
      disabled: readOnly,
    };
  };
  const plain = (label: string) => ({ "aria-label": `${label} (${name})`, disabled: readOnly });

  return (
    <div className={classNames("segment-condition", c.negated && "segment-negated")} data-node={c.id}>
      <div className="segment-condition-row">
        {c.negated && (
          <span className="segment-not" aria-hidden="true">
            Not
          </span>
        )}
        <Select value={c.kind} onChange={(event) => set({ kind: event.target.value as ConditionKind })} {...plain("Kind")}>
          {CONDITION_KINDS.map((group) => (
            <optgroup key={group.group} label={group.group}>
              {group.options.map((option) => (
                <option key={option.kind} value={option.kind}>
                  {option.label}
                </option>
              ))}
            </optgroup>
          ))}
        </Select>
        {c.kind === "attribute" && <AttributeInputs c={c} set={set} control={control} plain={plain} choices={choices} />}
        {c.kind === "profile" && <ProfileInputs c={c} set={set} control={control} plain={plain} />}
        {c.kind === "activity" && <ActivityInputs c={c} set={set} control={control} plain={plain} choices={choices} />}
        {c.kind === "not_suppressed" && (
          <Select value={c.channel} onChange={(event) => set({ channel: event.target.value as SuppressionChannel })} {...plain("Channel")}>
            {SUPPRESSION_CHANNELS.map((option) => (
              <option key={option.channel} value={option.channel}>
                {option.label}
              </option>
            ))}
          </Select>
        )}
        {c.kind === "segment" && (
          <SegmentPicker
            compact
            label={`Segment (${name})`}
            value={c.segmentId}
            onChange={(segment) => set({ segmentId: segment.id })}
            excludeId={choices.excludeSegmentId}
            disabled={readOnly}
            describedBy={problems.has(problemKey(c.id, "segmentId")) ? `${errorBase}-segmentId` : undefined}
          />
        )}
        {!readOnly && (
          <span className="segment-row-actions">
            <label className="segment-toggle">
              <input type="checkbox" checked={c.negated} onChange={(event) => set({ negated: event.target.checked })} />
              Not<span className="visually-hidden">{` (negate ${name})`}</span>
            </label>
            <Button size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove ${name}`} title="Remove">
              ✕
            </Button>
          </span>
        )}
      </div>
      {inputs.length > 0 && (
        <ul className="segment-condition-errors">
          {inputs.map(({ input, message }) => (
            <li key={input} id={`${errorBase}-${input}`} className="field-error">
              {message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

type Control = (input: DraftInput, label: string) => Record<string, unknown>;
type Plain = (label: string) => Record<string, unknown>;
type Set = (patch: Partial<ConditionDraft>) => void;

function AttributeInputs({ c, set, control, plain, choices }: { c: ConditionDraft; set: Set; control: Control; plain: Plain; choices: BuilderChoices }) {
  const op = c.attributeOp;
  return (
    <>
      <Input
        className="segment-input-name"
        list={choices.attributeListId}
        placeholder="attribute, e.g. plan"
        autoComplete="off"
        spellCheck={false}
        value={c.attribute}
        onChange={(event) => set({ attribute: event.target.value, ...typedFor(choices.attributeKinds.get(event.target.value.trim()), c) })}
        {...control("attribute", "Attribute")}
      />
      <Select value={op} onChange={(event) => set({ attributeOp: event.target.value as AttributeOp })} {...plain("Operator")}>
        {ATTRIBUTE_OPS.map((value) => (
          <option key={value} value={value}>
            {ATTRIBUTE_OP_LABELS[value]}
          </option>
        ))}
      </Select>
      {(op === "eq" || op === "ne") && (
        <>
          <Select value={c.valueType} onChange={(event) => set({ valueType: event.target.value as ValueType, value: event.target.value === "boolean" ? "true" : c.value })} {...plain("Value type")}>
            <option value="text">text</option>
            <option value="number">number</option>
            <option value="boolean">yes / no</option>
          </Select>
          {c.valueType === "boolean" ? (
            <Select value={c.value === "false" ? "false" : "true"} onChange={(event) => set({ value: event.target.value })} {...control("value", "Value")}>
              <option value="true">true</option>
              <option value="false">false</option>
            </Select>
          ) : (
            <Input
              className="segment-input-value"
              inputMode={c.valueType === "number" ? "decimal" : undefined}
              placeholder={c.valueType === "number" ? "e.g. 42" : "e.g. pro"}
              value={c.value}
              onChange={(event) => set({ value: event.target.value })}
              {...control("value", "Value")}
            />
          )}
        </>
      )}
      {(op === "lt" || op === "gt") && (
        <Input className="segment-input-number" type="number" step="any" placeholder="e.g. 42" value={c.value} onChange={(event) => set({ value: event.target.value })} {...control("value", "Value")} />
      )}
      {op === "contains" && (
        <Input className="segment-input-value" placeholder="text" value={c.value} onChange={(event) => set({ value: event.target.value })} {...control("value", "Value")} />
      )}
      {op === "in" && (
        <>
          <Select value={c.valueType === "number" ? "number" : "text"} onChange={(event) => set({ valueType: event.target.value as ValueType })} {...plain("Value type")}>
            <option value="text">text</option>
            <option value="number">numbers</option>
          </Select>
          <Input
            className="segment-input-list"
            placeholder="pro, team, enterprise"
            value={c.value}
            onChange={(event) => set({ value: event.target.value })}
            {...control("value", "Values, separated by commas")}
          />
        </>
      )}
      {(op === "before" || op === "after") && (
        <>
          <Select value={c.dateMode} onChange={(event) => set({ dateMode: event.target.value as ConditionDraft["dateMode"], value: "" })} {...plain("Date kind")}>
            <option value="daysAgo">a number of days ago</option>
            <option value="date">a date</option>
          </Select>
          {c.dateMode === "date" ? (
            <Input className="segment-input-date" type="date" value={c.value} onChange={(event) => set({ value: event.target.value })} {...control("value", "Date")} />
          ) : (
            <>
              <Input className="segment-input-number" type="number" min={0} step={1} value={c.value} onChange={(event) => set({ value: event.target.value })} {...control("value", "Days ago")} />
              <span className="segment-words">days ago</span>
            </>
          )}
        </>
      )}
      {op === "within_last" && (
        <>
          <Input className="segment-input-number" type="number" min={1} step={1} value={c.value} onChange={(event) => set({ value: event.target.value })} {...control("value", "Days")} />
          <span className="segment-words">days</span>
        </>
      )}
    </>
  );
}

/**
 * Picking an attribute the data knows sets the value's type to match: a number compares as a
 * number, a flag as true/false, a date offers "is before … days ago". Only an untouched
 * comparison (still "is" with no value) is changed, never what the member chose.
 */
function typedFor(kind: string | undefined, c: ConditionDraft): Partial<ConditionDraft> {
  if (!kind || c.value.trim() !== "" || (c.attributeOp !== "eq" && c.attributeOp !== "ne")) return {};
  if (kind === "number") return { valueType: "number" };
  if (kind === "boolean") return { valueType: "boolean", value: "true" };
  if (kind === "date" && c.attributeOp === "eq") return { attributeOp: "before", dateMode: "daysAgo" };
  if (kind === "list") return { attributeOp: "in" };
  return { valueType: "text" };
}

function ProfileInputs({ c, set, control, plain }: { c: ConditionDraft; set: Set; control: Control; plain: Plain }) {
  return (
    <>
      <Select value={c.field} onChange={(event) => set({ field: event.target.value as ProfileField })} {...plain("Profile field")}>
        {PROFILE_FIELDS.map((field) => (
          <option key={field} value={field}>
            {PROFILE_FIELD_LABELS[field]}
          </option>
        ))}
      </Select>
      <Select value={c.profileOp} onChange={(event) => set({ profileOp: event.target.value as ProfileOp })} {...plain("Operator")}>
        {PROFILE_OPS.map((value) => (
          <option key={value} value={value}>
            {PROFILE_OP_LABELS[value]}
          </option>
        ))}
      </Select>
      {c.profileOp !== "exists" && (
        <Input
          className={c.profileOp === "in" ? "segment-input-list" : "segment-input-value"}
          placeholder={c.profileOp === "in" ? "fr, de, es" : c.field === "locale" ? "e.g. fr" : c.field === "timezone" ? "e.g. Europe/Paris" : "text"}
          spellCheck={false}
          value={c.value}
          onChange={(event) => set({ value: event.target.value })}
          {...control("value", c.profileOp === "in" ? "Values, separated by commas" : "Value")}
        />
      )}
    </>
  );
}

function ActivityInputs({ c, set, control, plain, choices }: { c: ConditionDraft; set: Set; control: Control; plain: Plain; choices: BuilderChoices }) {
  return (
    <>
      <Input
        className="segment-input-name"
        list={choices.activityListId}
        placeholder="activity, e.g. session_completed"
        autoComplete="off"
        spellCheck={false}
        value={c.activity}
        onChange={(event) => set({ activity: event.target.value })}
        {...control("activity", "Activity")}
      />
      <Select value={c.activityOp} onChange={(event) => set({ activityOp: event.target.value as ActivityOp })} {...plain("Operator")}>
        {(["did", "did_not", "never"] as const).map((value) => (
          <option key={value} value={value}>
            {ACTIVITY_OP_LABELS[value]}
          </option>
        ))}
      </Select>
      {c.activityOp === "did" && (
        <>
          <Input className="segment-input-number" type="number" min={1} step={1} value={c.atLeast} onChange={(event) => set({ atLeast: event.target.value })} {...control("atLeast", "Times")} />
          <span className="segment-words">{c.atLeast.trim() === "1" ? "time" : "times"}</span>
          <Select value={c.didEver ? "ever" : "within"} onChange={(event) => set({ didEver: event.target.value === "ever" })} {...plain("When")}>
            <option value="ever">ever</option>
            <option value="within">in the last…</option>
          </Select>
        </>
      )}
      {(c.activityOp === "did_not" || (c.activityOp === "did" && !c.didEver)) && (
        <>
          <Input className="segment-input-number" type="number" min={1} step={1} value={c.withinDays} onChange={(event) => set({ withinDays: event.target.value })} {...control("withinDays", "Days")} />
          <span className="segment-words">days</span>
        </>
      )}
    </>
  );
}

function Select({ className, children, ...rest }: ComponentProps<"select"> & { children: ReactNode }) {
  return (
    <select className={classNames("input input-sm select segment-select", className)} {...rest}>
      {children}
    </select>
  );
}

function Input({ className, ...rest }: ComponentProps<"input">) {
  return <input className={classNames("input input-sm", className)} {...rest} />;
}
