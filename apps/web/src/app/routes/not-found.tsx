import { Link } from "react-router";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { PageHeader } from "../../components/ui/page-header.tsx";

export function NotFoundRoute() {
  return (
    <>
      <PageHeader title="Page not found" />
      <Card>
        <EmptyState title="Nothing lives at this address" action={<Link to="/">Go to the dashboard</Link>}>
          The link may be mistyped, or the page may have moved.
        </EmptyState>
      </Card>
    </>
  );
}
