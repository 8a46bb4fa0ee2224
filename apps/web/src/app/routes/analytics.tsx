import { lazy, Suspense } from "react";
import { PageHeader } from "../../components/ui/page-header.tsx";
import { PageSpinner } from "../../components/ui/spinner.tsx";
import { RequireCapability } from "../require-capability.tsx";

// recharts is the dashboard's biggest dependency: it loads with this page only.
const AnalyticsPage = lazy(() => import("../../features/analytics/analytics-page.tsx").then((m) => ({ default: m.AnalyticsPage })));

export function AnalyticsRoute() {
  return (
    <>
      <PageHeader title="Analytics" description="How notifications perform: the funnel, open and delivery rates over time, bounces and complaints against the providers' limits, broadcasts and template versions side by side." />
      <RequireCapability anyOf={["analytics.read"]}>
        <Suspense fallback={<PageSpinner />}>
          <AnalyticsPage />
        </Suspense>
      </RequireCapability>
    </>
  );
}
