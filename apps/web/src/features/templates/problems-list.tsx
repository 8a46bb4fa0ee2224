import { Button } from "../../components/ui/button.tsx";
import { channelLabel } from "../../lib/channels.ts";
import { fieldLabel } from "./field-labels.ts";
import type { ShownProblem } from "./shown-problem.ts";

/** Each problem with where it is (locale · channel · field, line and column) and a way there. */
export function ProblemsList({
  problems,
  onGoTo,
  onDeclare,
}: {
  problems: ShownProblem[];
  onGoTo: (problem: ShownProblem) => void;
  /** Offered for a variable the copy uses but the table does not declare. */
  onDeclare: (name: string) => void;
}) {
  // A variable used in three fields is one declaration: offered once, at its first problem.
  const firstUse = new Map<string, number>();
  problems.forEach((problem, index) => {
    if (problem.code === "unknown_variable" && problem.variable && !firstUse.has(problem.variable)) firstUse.set(problem.variable, index);
  });
  return (
    <ul className="template-problems">
      {problems.map((problem, index) => {
        const where = [problem.locale, problem.channel && channelLabel(problem.channel), problem.field && fieldLabel(problem.field)]
          .filter(Boolean)
          .join(" · ");
        const position = problem.line ? `line ${problem.line}, column ${problem.column ?? 1}` : null;
        const { variable } = problem;
        return (
          <li className="template-problem" key={`${index}-${problem.message}`}>
            <div className="template-problem-text">
              {(where || position) && (
                <p className="template-problem-where">
                  {where}
                  {where && position && " · "}
                  {position}
                </p>
              )}
              <p>{problem.message}</p>
            </div>
            <div className="template-problem-actions">
              {variable && firstUse.get(variable) === index && (
                <Button size="sm" onClick={() => onDeclare(variable)}>
                  Declare <code className="code">{variable}</code>
                </Button>
              )}
              {(problem.address || (problem.locale && problem.channel)) && (
                <Button size="sm" variant="ghost" onClick={() => onGoTo(problem)}>
                  {problem.address ? "Go to field" : "Show"}
                  <span className="visually-hidden">{where ? ` ${where}` : ""}</span>
                </Button>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
