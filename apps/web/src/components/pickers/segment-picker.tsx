import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTRPC } from "../../lib/trpc.ts";
import { SearchPicker, useDebouncedSearch } from "./search-picker.tsx";

const PAGE_SIZE = 20;
const people = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "person" : "people"}`;

/** A segment as a picker offers it. */
export interface PickedSegment {
  id: string;
  name: string;
  words: string;
  size: number | null;
}

/**
 * Picks a segment by searching its name on the server (`segments.list`, keyset-paged). The chosen
 * one is read by id, so it shows with its plain words even when it is not on the page searched.
 */
export function SegmentPicker({
  label = "Segment",
  value,
  onChange,
  excludeId,
  showWords = false,
  hint,
  error,
  compact = false,
  disabled = false,
  describedBy,
}: {
  label?: string;
  value: string;
  onChange: (segment: PickedSegment) => void;
  /** A segment that may not be picked (the one being edited). */
  excludeId?: string | null;
  /** Shows the chosen segment's rule in words, so nobody sends to the wrong list by its name alone. */
  showWords?: boolean;
  hint?: ReactNode;
  error?: string | null | undefined;
  /** In a row of other inputs (a rule's condition): see SearchPicker. */
  compact?: boolean;
  disabled?: boolean;
  describedBy?: string | undefined;
}) {
  const trpc = useTRPC();
  const { text, setText, search } = useDebouncedSearch();
  const list = useInfiniteQuery(
    trpc.segments.list.infiniteQueryOptions(search ? { search, limit: PAGE_SIZE } : { limit: PAGE_SIZE }, {
      getNextPageParam: (page) => page.nextCursor,
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
  );
  const chosen = useQuery(trpc.segments.get.queryOptions({ id: value }, { enabled: value !== "" }));
  const items = (list.data?.pages.flatMap((page) => page.items) ?? []).filter((s) => s.id !== excludeId);
  const segment = chosen.data?.segment;

  return (
    <SearchPicker
      label={label}
      placeholder="Search segments by name"
      text={text}
      onTextChange={setText}
      results={{ ...list, items, hasNextPage: list.hasNextPage }}
      optionKey={(s) => s.id}
      renderOption={(s) => (
        <>
          <span>{s.name}</span>
          <span className="picker-option-sub">{s.size === null ? "not counted yet" : people(s.size)}</span>
        </>
      )}
      selectedKey={value}
      compact={compact}
      disabled={disabled}
      describedBy={describedBy}
      selected={
        compact ? (value === "" ? "Choose a segment…" : (segment?.name ?? (chosen.isError ? `Segment #${value} (deleted)` : "Loading…")))
        : value === "" ? null : segment ? (
          <>
            <strong>{segment.name}</strong>
            {segment.size !== null && ` · ${people(segment.size)}`}
            {showWords && <span className="picker-selected-words">{segment.words}</span>}
          </>
        ) : chosen.isError ? (
          `Segment #${value} (it no longer exists)`
        ) : (
          "Loading the chosen segment…"
        )
      }
      onSelect={(s) => onChange({ id: s.id, name: s.name, words: s.words, size: s.size })}
      empty={
        <>
          <p className="picker-empty-title">No segments yet</p>
          <p className="picker-empty-text">
            A segment is a rule that picks who gets something. <Link to="/segments/new">Build the first segment</Link>.
          </p>
        </>
      }
      hint={hint}
      error={error}
    />
  );
}
