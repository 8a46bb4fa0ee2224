import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { inferOutput } from "@trpc/tanstack-react-query";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTRPC, type Api } from "../../lib/trpc.ts";
import { SearchPicker, useDebouncedSearch } from "./search-picker.tsx";

const PAGE_SIZE = 20;

/** A template as `templates.list` returns it. */
export type PickedTemplate = inferOutput<Api["templates"]["list"]>["items"][number];

/**
 * Picks a template by searching its key or name on the server (`templates.list`, keyset-paged).
 * Unpublished templates show but cannot be picked when `publishedOnly` (a broadcast sends a
 * published version).
 */
export function TemplatePicker({
  label = "Template",
  value,
  onChange,
  publishedOnly = false,
  hint,
  error,
}: {
  label?: string;
  value: string;
  onChange: (template: PickedTemplate) => void;
  publishedOnly?: boolean;
  hint?: ReactNode;
  error?: string | null | undefined;
}) {
  const trpc = useTRPC();
  const { text, setText, search } = useDebouncedSearch();
  const list = useInfiniteQuery(
    trpc.templates.list.infiniteQueryOptions(search ? { search, limit: PAGE_SIZE } : { limit: PAGE_SIZE }, {
      getNextPageParam: (page) => page.nextCursor,
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
  );
  const chosen = useQuery(trpc.templates.get.queryOptions({ key: value }, { enabled: value !== "" }));
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const template = chosen.data?.template;

  return (
    <SearchPicker
      label={label}
      placeholder="Search templates by key or name"
      text={text}
      onTextChange={setText}
      results={{ ...list, items, hasNextPage: list.hasNextPage }}
      optionKey={(t) => t.key}
      isDisabled={publishedOnly ? (t) => t.currentVersion === null : undefined}
      renderOption={(t) => (
        <>
          <span>
            {t.name} <code className="code">{t.key}</code>
          </span>
          <span className="picker-option-sub">{t.currentVersion === null ? "not published" : `v${t.currentVersion} · ${t.channels.join(", ")}`}</span>
        </>
      )}
      selectedKey={value}
      selected={
        value === "" ? null : template ? (
          <>
            <strong>{template.name}</strong> <code className="code">{template.key}</code>
          </>
        ) : chosen.isError ? (
          `${value} (it no longer exists)`
        ) : (
          "Loading the chosen template…"
        )
      }
      onSelect={onChange}
      empty={
        <>
          <p className="picker-empty-title">No templates yet</p>
          <p className="picker-empty-text">
            A template holds what is sent, per channel and language. <Link to="/templates">Create one in Templates</Link> and publish it.
          </p>
        </>
      }
      hint={hint}
      error={error}
    />
  );
}
