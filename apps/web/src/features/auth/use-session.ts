import { useQuery } from "@tanstack/react-query";
import type { Member } from "../../lib/api-types.ts";
import { hasCapability, type Capability } from "../../lib/capabilities.ts";
import { useTRPC } from "../../lib/trpc.ts";

/** Who is signed in, if anyone: `auth.me` answers `{ member: null }` rather than failing. */
export function useSession() {
  const trpc = useTRPC();
  return useQuery(trpc.auth.me.queryOptions());
}

/**
 * The signed-in member and their capabilities. Only for components under the signed-in layout,
 * which renders nothing until the session has loaded with a member.
 */
export function useMember(): { member: Member; can: (capability: Capability) => boolean } {
  const { data } = useSession();
  if (!data?.member) throw new Error("useMember() was called outside the signed-in layout");
  const { member, capabilities } = data;
  return { member, can: (capability) => hasCapability(capabilities, capability) };
}
