import type { Rule } from "@herald/core/browser";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTRPCClient } from "../../lib/trpc.ts";
import { useDebouncedValue } from "../../lib/use-debounced-value.ts";

// Long enough that a number typed is one count, short enough to feel live.
const previewDelayMs = 400;

/**
 * The live count and sample of the rule on screen, at most once per pause in typing. `rule` is
 * null while the builder has something unfinished: the last answer stays, marked as out of date.
 */
export function useSegmentPreview(rule: Rule | null) {
  const client = useTRPCClient();
  const ruleJson = useMemo(() => JSON.stringify(rule), [rule]);
  const settledJson = useDebouncedValue(ruleJson, previewDelayMs);
  const settled = useMemo(() => JSON.parse(settledJson) as Rule | null, [settledJson]);
  // preview is a mutation (a large rule does not fit in a GET's URL) read like a query.
  const query = useQuery({
    queryKey: ["segments.preview", settledJson],
    queryFn: () => client.segments.preview.mutate({ rule: settled ?? { kind: "and", children: [] } }),
    enabled: settled !== null,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 10_000,
  });
  return {
    preview: query.data ?? null,
    error: query.error,
    isUpdating: rule !== null && (query.isFetching || ruleJson !== settledJson),
    isStale: rule === null || query.isPlaceholderData,
    retry: () => void query.refetch(),
  };
}
