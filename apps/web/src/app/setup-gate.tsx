import { useQuery } from "@tanstack/react-query";
import { Navigate, Outlet, useLocation } from "react-router";
import { PageSpinner } from "../components/ui/spinner.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { FullPageError } from "./full-page-error.tsx";

/**
 * A fresh instance has no members, so nothing but /setup makes sense; once the first admin
 * exists, /setup must never be reachable again.
 */
export function SetupGate() {
  const trpc = useTRPC();
  const status = useQuery(trpc.setup.status.queryOptions());
  const { pathname } = useLocation();

  if (status.isPending) return <PageSpinner />;
  if (status.isError) {
    return <FullPageError error={status.error} onRetry={() => status.refetch()} retrying={status.isFetching} />;
  }
  const onSetup = pathname === "/setup";
  if (status.data.needsFirstAdmin && !onSetup) return <Navigate to="/setup" replace />;
  if (!status.data.needsFirstAdmin && onSetup) return <Navigate to="/sign-in" replace />;
  return <Outlet />;
}
