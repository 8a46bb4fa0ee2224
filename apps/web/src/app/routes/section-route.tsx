import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { PageHeader } from "../../components/ui/page-header.tsx";

/** A dashboard section that exists in the navigation before its features ship. */
export function SectionRoute({ title, purpose, emptyTitle }: { title: string; purpose: string; emptyTitle: string }) {
  return (
    <>
      <PageHeader title={title} description={purpose} />
      <Card>
        <EmptyState title={emptyTitle}>This section is not available in this version of Herald yet.</EmptyState>
      </Card>
    </>
  );
}
