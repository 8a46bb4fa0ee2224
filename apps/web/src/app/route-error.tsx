import { isRouteErrorResponse, useRouteError } from "react-router";
import { Button } from "../components/ui/button.tsx";

/** The last resort for a render error: say so and offer a reload rather than a blank page. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : "An unexpected error occurred.";
  return (
    <div className="auth-page">
      <div className="auth-card">
        <div className="error-state" role="alert">
          <p className="error-state-title">Something went wrong</p>
          <p className="error-state-text">{message}</p>
          <Button variant="primary" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </div>
      </div>
    </div>
  );
}
