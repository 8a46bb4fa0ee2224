import type { ReactNode } from "react";
import { Card } from "../components/ui/card.tsx";
import { EmptyState } from "../components/ui/empty-state.tsx";
import { useMember } from "../features/auth/use-session.ts";
import type { Capability } from "../lib/capabilities.ts";

/** Says "no access" up front instead of letting the page's queries fail with FORBIDDEN. */
export function RequireCapability({ anyOf, children }: { anyOf: Capability[]; children: ReactNode }) {
  const { can } = useMember();
  if (anyOf.some(can)) return children;
  return (
    <Card>
      <EmptyState title="You do not have access to this page">
        Your role does not include it. An admin can change your role in Settings → Members.
      </EmptyState>
    </Card>
  );
}
