import { Navigate, Outlet, useLocation } from "react-router";
import { PageSpinner } from "../components/ui/spinner.tsx";
import { useEndSessionOnUnauthorized } from "../features/auth/use-end-session-on-unauthorized.ts";
import { useSession } from "../features/auth/use-session.ts";
import { FullPageError } from "./full-page-error.tsx";

/** Everything below renders only with a signed-in member, so it can call `useMember()`. */
export function RequireMember() {
  const session = useSession();
  const location = useLocation();
  useEndSessionOnUnauthorized();

  if (session.isPending) return <PageSpinner />;
  if (session.isError) {
    return <FullPageError error={session.error} onRetry={() => session.refetch()} retrying={session.isFetching} />;
  }
  if (!session.data.member) {
    return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  }
  return <Outlet />;
}
