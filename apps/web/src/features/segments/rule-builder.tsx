import { MAX_RULE_CONDITIONS, MAX_RULE_DEPTH } from "@herald/core/browser";
import { useId, useMemo } from "react";
import { Button } from "../../components/ui/button.tsx";
import { classNames } from "../../lib/class-names.ts";
import { ConditionEditor, type BuilderChoices } from "./condition-editor.tsx";
import { countConditions, newCondition, newGroup, problemKey, updateNode, type DraftProblems, type GroupDraft, type NodeDraft } from "./rule-draft.ts";

type BuilderProps = {
  root: GroupDraft;
  problems: DraftProblems;
  /** Attributes seen in the data, each with the kind of value it mostly holds. */
  attributes: ReadonlyArray<{ name: string; kind: string }>;
  activityNames: readonly string[];
  /** The segment being edited, which its own rule cannot name. */
  excludeSegmentId: string | null;
  readOnly: boolean;
  onChange: (root: GroupDraft) => void;
};

/**
 * The rule as nested groups of conditions: each group matches all or any of its rows, any row or
 * group can be negated, and names seen in the data are offered as you type.
 */
export function RuleBuilder({ root, problems, attributes, activityNames, excludeSegmentId, readOnly, onChange }: BuilderProps) {
  const listId = useId();
  const attributeKinds = useMemo(() => new Map(attributes.map((a) => [a.name, a.kind])), [attributes]);
  const choices: BuilderChoices = { attributeListId: `${listId}-attributes`, attributeKinds, activityListId: `${listId}-activities`, excludeSegmentId };
  // Conditions are numbered in reading order, so each control's name says which row it belongs to.
  const numbers = new Map<string, number>();
  const groupNumbers = new Map<string, number>();
  const number = (node: NodeDraft) => {
    if (node.node === "condition") numbers.set(node.id, numbers.size + 1);
    else {
      groupNumbers.set(node.id, groupNumbers.size + 1);
      node.children.forEach(number);
    }
  };
  number(root);
  const atLimit = countConditions(root) >= MAX_RULE_CONDITIONS;
  const context: GroupContext = {
    problems,
    choices,
    readOnly,
    atLimit,
    numbers,
    groupNumbers,
    change: (id, change) => onChange(updateNode(root, id, change)),
  };

  return (
    <div className="segment-builder">
      <GroupEditor group={root} depth={1} isRoot context={context} />
      <datalist id={choices.attributeListId}>
        {attributes.map((attribute) => (
          <option key={attribute.name} value={attribute.name} label={`${attribute.name} (${attribute.kind})`} />
        ))}
      </datalist>
      <datalist id={choices.activityListId}>
        {activityNames.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </div>
  );
}

type GroupContext = {
  problems: DraftProblems;
  choices: BuilderChoices;
  readOnly: boolean;
  atLimit: boolean;
  numbers: ReadonlyMap<string, number>;
  groupNumbers: ReadonlyMap<string, number>;
  change: (id: string, change: (node: NodeDraft) => NodeDraft | null) => void;
};

function GroupEditor({ group, depth, isRoot = false, context }: { group: GroupDraft; depth: number; isRoot?: boolean; context: GroupContext }) {
  const { readOnly, atLimit, change } = context;
  const name = isRoot ? "the whole rule" : `group ${context.groupNumbers.get(group.id)}`;
  const headingId = useId();
  const setGroup = (patch: Partial<GroupDraft>) => change(group.id, (node) => ({ ...node, ...patch }) as GroupDraft);
  const add = (child: NodeDraft) => change(group.id, (node) => (node.node === "group" ? { ...node, children: [...node.children, child] } : node));
  // A nested group (and its possible negation) must still fit under the depth limit.
  const canNest = depth + (group.negated ? 1 : 0) + 2 <= MAX_RULE_DEPTH;

  return (
    <div
      className={classNames("segment-group", isRoot && "segment-group-root", group.negated && "segment-negated")}
      role="group"
      aria-labelledby={headingId}
      data-node={group.id}
    >
      <div className="segment-group-head">
        <p className="segment-group-title" id={headingId}>
          {group.negated && <span className="segment-not">Not</span>}
          <span className="visually-hidden">{`${name[0]!.toUpperCase()}${name.slice(1)}: `}</span>
          {isRoot ? "Users who match" : "Match"}
        </p>
        <select
          className="input input-sm select segment-select"
          aria-label={`Match all or any (${name})`}
          value={group.match}
          disabled={readOnly}
          onChange={(event) => setGroup({ match: event.target.value === "or" ? "or" : "and" })}
        >
          <option value="and">all</option>
          <option value="or">any</option>
        </select>
        <span className="segment-words">of these:</span>
        {!readOnly && (
          <span className="segment-row-actions">
            <label className="segment-toggle">
              <input type="checkbox" checked={group.negated} onChange={(event) => setGroup({ negated: event.target.checked })} />
              Not<span className="visually-hidden">{` (negate ${name})`}</span>
            </label>
            {!isRoot && (
              <Button size="sm" variant="ghost" onClick={() => change(group.id, () => null)} aria-label={`Remove ${name}`} title="Remove group">
                ✕
              </Button>
            )}
          </span>
        )}
      </div>
      {context.problems.get(problemKey(group.id, "node")) && (
        <p className="field-error" role="alert">
          {context.problems.get(problemKey(group.id, "node"))}
        </p>
      )}
      {group.children.length === 0 ? (
        <p className="segment-group-empty">
          {group.match === "and" ? "No conditions: everyone matches." : "No conditions: nobody matches."}
        </p>
      ) : (
        <ol className="segment-children">
          {group.children.map((child, index) => (
            <li key={child.id} className="segment-child">
              {index > 0 && (
                <span className="segment-joiner" aria-hidden="true">
                  {group.match === "and" ? "and" : "or"}
                </span>
              )}
              {child.node === "group" ? (
                <GroupEditor group={child} depth={depth + (group.negated ? 2 : 1)} context={context} />
              ) : (
                <ConditionEditor
                  condition={child}
                  name={`condition ${context.numbers.get(child.id)}`}
                  problems={context.problems}
                  choices={context.choices}
                  readOnly={readOnly}
                  onChange={(next) => change(child.id, () => next)}
                  onRemove={() => change(child.id, () => null)}
                />
              )}
            </li>
          ))}
        </ol>
      )}
      {!readOnly && (
        <div className="segment-group-actions">
          <Button size="sm" onClick={() => add(newCondition())} disabled={atLimit} aria-label={`Add condition to ${name}`}>
            + Condition
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => add(newGroup(group.match === "and" ? "or" : "and"))}
            disabled={atLimit || !canNest}
            aria-label={`Add group to ${name}`}
            title={canNest ? `A group inside: ${group.match === "and" ? "any" : "all"} of its conditions` : "Groups cannot be nested any deeper"}
          >
            + Group
          </Button>
        </div>
      )}
    </div>
  );
}
