import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { LoadMoreFooter } from "../../components/ui/load-more-footer.tsx";
import { TableSkeleton } from "../../components/ui/skeleton.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { NewTemplateButton } from "./new-template-button.tsx";
import { TemplatesTable } from "./templates-table.tsx";
import { useDebouncedValue } from "../../lib/use-debounced-value.ts";

const pageSize = 25;
const searchDelayMs = 300;

/** Every template, searchable by key or name, a page at a time. */
export function TemplatesList({ canEdit }: { canEdit: boolean }) {
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const applied = useDebouncedValue(search.trim(), searchDelayMs);
  const list = useInfiniteQuery(
    trpc.templates.list.infiniteQueryOptions(
      applied ? { search: applied, limit: pageSize } : { limit: pageSize },
      // The rows stay while the next search loads, instead of flashing a skeleton per keystroke.
      { getNextPageParam: (page) => page.nextCursor, placeholderData: keepPreviousData },
    ),
  );
  const templates = list.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Card flush>
      <form className="toolbar" role="search" aria-label="Search templates" onSubmit={(event) => event.preventDefault()}>
        <TextField
          label="Search"
          name="search"
          type="search"
          autoComplete="off"
          spellCheck={false}
          placeholder="Key or name"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </form>
      {list.isPending ? (
        <TableSkeleton columns={4} rows={5} label="Loading templates" />
      ) : list.isError && templates.length === 0 ? (
        <ErrorState error={list.error} title="Could not load templates" onRetry={() => list.refetch()} retrying={list.isFetching} />
      ) : templates.length === 0 ? (
        applied ? (
          <EmptyState title="No matching templates">
            No template has “{applied}” in its key or name.
          </EmptyState>
        ) : (
          <EmptyState title="No templates yet" action={canEdit && <NewTemplateButton />}>
            A template holds a notification's copy for each channel and language, with placeholders such as{" "}
            <code className="code">{"{{ data.order_id }}"}</code> filled in per user. Preview it with example data,
            then publish: every send uses the published version.
          </EmptyState>
        )
      ) : (
        <>
          <TemplatesTable templates={templates} />
          <LoadMoreFooter query={list} end={<p className="muted">{templates.length === 1 ? "1 template" : `${templates.length} templates`}.</p>} />
        </>
      )}
    </Card>
  );
}
