import { getErrorMessage } from "../../lib/trpc-error.ts";
import { Button } from "./button.tsx";

/** Why something failed to load, with a way to try again. */
export function ErrorState({
  error,
  onRetry,
  title = "Could not load this",
  retrying = false,
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
  retrying?: boolean;
}) {
  return (
    <div className="error-state" role="alert">
      <p className="error-state-title">{title}</p>
      <p className="error-state-text">{getErrorMessage(error)}</p>
      {onRetry && (
        <Button onClick={onRetry} pending={retrying}>
          Retry
        </Button>
      )}
    </div>
  );
}
