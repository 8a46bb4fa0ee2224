import "../../../features/categories/categories.css";
import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { Card } from "../../../components/ui/card.tsx";
import { ErrorState } from "../../../components/ui/error-state.tsx";
import { TableSkeleton } from "../../../components/ui/skeleton.tsx";
import { blankCategory, draftFromCategory } from "../../../features/categories/category-draft.ts";
import { CategoryForm } from "../../../features/categories/category-form.tsx";
import { useTRPC } from "../../../lib/trpc.ts";
import { RequireCapability } from "../../require-capability.tsx";

/** /settings/categories/new and /settings/categories/:key. */
export function CategoryEditRoute() {
  const { key } = useParams();
  return <RequireCapability anyOf={["categories.manage"]}>{key ? <ExistingCategory categoryKey={key} /> : <CategoryForm start={blankCategory} isNew />}</RequireCapability>;
}

function ExistingCategory({ categoryKey }: { categoryKey: string }) {
  const trpc = useTRPC();
  const found = useQuery(trpc.categories.get.queryOptions({ key: categoryKey }));
  if (found.isPending) {
    return (
      <Card title="Category">
        <TableSkeleton columns={2} rows={5} label="Loading the category" />
      </Card>
    );
  }
  if (found.isError) {
    return (
      <Card title="Category">
        <ErrorState error={found.error} title="Could not load this category" onRetry={() => found.refetch()} retrying={found.isFetching} />
      </Card>
    );
  }
  return <CategoryForm start={draftFromCategory(found.data.category)} isNew={false} />;
}
