import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { useTRPC } from "../../lib/trpc.ts";

const refreshMs = 30_000;

/** Above every page, for operators and admins: the alerts open now. */
export function OpenAlertsBanner() {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.operations.openAlerts.queryOptions(undefined, { refetchInterval: refreshMs }));
  if (!data || data.length === 0) return null;
  return (
    <div className="banner banner-danger" role="alert">
      <p className="banner-text">
        {data.length === 1 ? "1 alert is open" : `${data.length} alerts are open`}: {data[0]!.message}
        {data.length > 1 ? ` (and ${data.length - 1} more)` : ""}
      </p>
      <p className="banner-detail">
        <Link to="/delivery/alerts">See every alert</Link>
      </p>
    </div>
  );
}
