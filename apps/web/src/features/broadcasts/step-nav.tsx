import { classNames } from "../../lib/class-names.ts";
import { STEPS, type Step } from "./composer-draft.ts";

/** The composer's steps as a numbered list; any step can be revisited, the current one is marked. */
export function StepNav({ current, complete, onSelect }: { current: Step; complete: (step: Step) => boolean; onSelect: (step: Step) => void }) {
  return (
    <nav aria-label="Broadcast steps" className="composer-steps">
      <ol>
        {STEPS.map((step, index) => {
          const isCurrent = step.key === current;
          const isDone = !isCurrent && step.key !== "review" && complete(step.key);
          return (
            <li key={step.key}>
              <button
                type="button"
                className={classNames("composer-step", isCurrent && "current", isDone && "done")}
                aria-current={isCurrent ? "step" : undefined}
                onClick={() => onSelect(step.key)}
              >
                <span className="composer-step-number" aria-hidden="true">
                  {isDone ? "✓" : index + 1}
                </span>
                <span className="composer-step-label">
                  {step.label}
                  {isDone && <span className="visually-hidden"> (complete)</span>}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
