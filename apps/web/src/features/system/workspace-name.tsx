import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc.ts";

/** The workspace's name from Settings → General, at the left of the top bar. */
export function WorkspaceName() {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.system.status.queryOptions());
  return <span className="topbar-workspace">{data?.workspaceName ?? ""}</span>;
}
