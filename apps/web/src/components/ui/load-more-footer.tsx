import type { ReactNode } from "react";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { Button } from "./button.tsx";

/** The parts of an infinite query the footer reads. */
interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: unknown;
  fetchNextPage(): unknown;
}

interface LoadMoreFooterProps {
  query: PagedQuery;
  /** Shown once every page is loaded, e.g. "12 segments." */
  end?: ReactNode;
  size?: "sm";
}

/** The footer of a paged table: a failed next page says why, and the last page says so. */
export function LoadMoreFooter({ query, end, size }: LoadMoreFooterProps) {
  if (!query.hasNextPage && !end && !query.isFetchNextPageError) return null;
  return (
    <div className="table-footer">
      {query.isFetchNextPageError && (
        <p className="field-error" role="alert">
          {getErrorMessage(query.error)}
        </p>
      )}
      {query.hasNextPage ? (
        <Button size={size ?? "md"} onClick={() => query.fetchNextPage()} pending={query.isFetchingNextPage}>
          Load more
        </Button>
      ) : (
        end
      )}
    </div>
  );
}
