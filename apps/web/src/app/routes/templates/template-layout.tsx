import "../../../features/templates/templates.css";
import { useQuery } from "@tanstack/react-query";
import { Link, NavLink, Outlet, useOutletContext, useParams } from "react-router";
import { Card } from "../../../components/ui/card.tsx";
import { EmptyState } from "../../../components/ui/empty-state.tsx";
import { ErrorState } from "../../../components/ui/error-state.tsx";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { TemplateHeader } from "../../../features/templates/template-header.tsx";
import type { TemplateDetail } from "../../../features/templates/template-types.ts";
import { hasErrorCode } from "../../../lib/trpc-error.ts";
import { useTRPC } from "../../../lib/trpc.ts";

/** /templates/:key and its tabs: the template loads once here, and each tab reads it from the outlet. */
export function TemplateLayout() {
  const { key = "" } = useParams();
  const trpc = useTRPC();
  const detail = useQuery(trpc.templates.get.queryOptions({ key }));

  return (
    <>
      <p className="template-breadcrumb">
        <Link to="/templates">← Templates</Link>
      </p>
      {detail.isPending ? (
        <div role="status" className="template-header-loading">
          <span className="visually-hidden">Loading the template</span>
          <Skeleton width="240px" className="skeleton-input" />
          <Skeleton width="420px" />
        </div>
      ) : detail.isError ? (
        <>
          <PageHeader title={key} />
          <Card>
            {hasErrorCode(detail.error, "NOT_FOUND") ? (
              <EmptyState title="No template has this key" action={<Link to="/templates">See every template</Link>}>
                It may have been mistyped in the address.
              </EmptyState>
            ) : (
              <ErrorState error={detail.error} title="Could not load this template" onRetry={() => detail.refetch()} retrying={detail.isFetching} />
            )}
          </Card>
        </>
      ) : (
        <>
          <TemplateHeader detail={detail.data} />
          <nav className="tabs" aria-label="Template sections">
            <NavLink to="" end className="tab">
              Content
            </NavLink>
            <NavLink to="history" className="tab">
              History
            </NavLink>
          </nav>
          <Outlet context={detail.data} />
        </>
      )}
    </>
  );
}

/** The template the layout loaded, for its tabs. */
export function useTemplateDetail(): TemplateDetail {
  return useOutletContext<TemplateDetail>();
}
