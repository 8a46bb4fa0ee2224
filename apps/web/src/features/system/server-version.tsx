import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc.ts";

/** Which build and process role this dashboard is talking to, for bug reports and upgrades. */
export function ServerVersion() {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.system.status.queryOptions());
  if (!data) return null;
  return (
    <p className="server-version">
      Herald {data.version} · {data.mode === "production" ? "Production" : "Development"}
    </p>
  );
}
