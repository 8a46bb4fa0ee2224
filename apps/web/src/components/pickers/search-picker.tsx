import { useEffect, useId, useState, type KeyboardEvent, type ReactNode } from "react";
import { classNames } from "../../lib/class-names.ts";
import { getErrorMessage } from "../../lib/trpc-error.ts";
import { Button } from "../ui/button.tsx";
import { Spinner } from "../ui/spinner.tsx";
import "./pickers.css";

/** One page-walking search, as a picker needs it from `useInfiniteQuery`. */
export interface PickerResults<T> {
  items: readonly T[];
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  refetch: () => unknown;
}

/** What the server is asked for: the search box's text once typing pauses. */
export function useDebouncedSearch(delayMs = 250): { text: string; setText: (text: string) => void; search: string } {
  const [text, setText] = useState("");
  const [search, setSearch] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), delayMs);
    return () => clearTimeout(timer);
  }, [text, delayMs]);
  return { text, setText, search };
}

/**
 * A search box over a server-side list that pages by keyset ("Show more"), with the choice above
 * it. Arrow keys move through the options from the box and Enter picks one, as in a combobox.
 * The list is the server's: a workspace with thousands of segments or templates pages through
 * them instead of loading every one.
 */
export function SearchPicker<T>({
  label,
  placeholder,
  text,
  onTextChange,
  results,
  optionKey,
  renderOption,
  isDisabled,
  selectedKey,
  selected,
  onSelect,
  empty,
  hint,
  error,
  compact = false,
  disabled = false,
  describedBy,
}: {
  label: string;
  placeholder: string;
  text: string;
  onTextChange: (text: string) => void;
  results: PickerResults<T>;
  optionKey: (item: T) => string;
  renderOption: (item: T) => ReactNode;
  /** An option shown but not pickable (an unpublished template, say). */
  isDisabled?: (item: T) => boolean;
  selectedKey: string;
  /** The current choice, as shown above the box; null when nothing is chosen. */
  selected: ReactNode;
  onSelect: (item: T) => void;
  /** Shown when the workspace has none at all (no search typed). */
  empty: ReactNode;
  hint?: ReactNode;
  error?: string | null | undefined;
  /**
   * For a row of other inputs: the label is for assistive technology only, the box shows the
   * choice until focused, and the options open under it while it has focus.
   */
  compact?: boolean;
  disabled?: boolean;
  /** Where a compact picker's problem is written, outside it. */
  describedBy?: string | undefined;
}) {
  const id = useId();
  const [isOpen, setIsOpen] = useState(false);
  const listId = `${id}-list`;
  const [active, setActive] = useState(-1);
  const items = results.items;
  const optionId = (index: number) => `${id}-option-${index}`;
  useEffect(() => setActive(-1), [text]);

  function pick(item: T) {
    onSelect(item);
    // A compact box closes on a choice and shows it; the search starts afresh next time.
    if (compact) {
      onTextChange("");
      (document.activeElement as HTMLElement | null)?.blur();
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (items.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (current + step + items.length) % items.length);
    } else if (event.key === "Enter" && active >= 0 && items[active]) {
      event.preventDefault();
      if (!isDisabled?.(items[active]!)) pick(items[active]!);
    }
  }

  const hasNoneAtAll = !results.isPending && !results.isError && items.length === 0 && text.trim() === "";
  const showsPanel = !compact || isOpen;
  return (
    <div className={classNames("field picker", compact && "picker-compact")}>
      <label className={compact ? "visually-hidden" : "field-label"} htmlFor={id}>
        {label}
      </label>
      {selected && !compact && <div className="picker-selected">{selected}</div>}
      {hasNoneAtAll && !compact ? (
        <div className="picker-empty" role="status">
          {empty}
        </div>
      ) : (
        <>
          <input
            id={id}
            className="input"
            type="search"
            role="combobox"
            autoComplete="off"
            spellCheck={false}
            placeholder={compact && !isOpen && typeof selected === "string" ? selected : placeholder}
            disabled={disabled}
            aria-describedby={describedBy}
            aria-expanded={showsPanel}
            aria-controls={listId}
            aria-activedescendant={active >= 0 ? optionId(active) : undefined}
            aria-invalid={error ? true : undefined}
            value={text}
            onChange={(event) => onTextChange(event.target.value)}
            onKeyDown={onKeyDown}
            onFocus={() => setIsOpen(true)}
            onBlur={() => setIsOpen(false)}
          />
          {showsPanel && (
          <div className="picker-panel">
            {results.isPending ? (
              <p className="picker-note" role="status">
                <Spinner size="sm" /> Searching…
              </p>
            ) : results.isError ? (
              <div className="picker-note" role="alert">
                <span className="field-error">{getErrorMessage(results.error)}</span>{" "}
                <Button size="sm" onClick={() => results.refetch()} pending={results.isFetching}>
                  Try again
                </Button>
              </div>
            ) : items.length === 0 ? (
              text.trim() === "" ? (
                <div className="picker-note" role="status">
                  <div>{empty}</div>
                </div>
              ) : (
                <p className="picker-note" role="status">{`Nothing matches “${text.trim()}”.`}</p>
              )
            ) : null}
            <ul className="picker-list" id={listId} role="listbox" aria-label={label}>
              {items.map((item, index) => {
                const key = optionKey(item);
                const isOff = isDisabled?.(item) ?? false;
                return (
                  <li
                    key={key}
                    id={optionId(index)}
                    role="option"
                    aria-selected={key === selectedKey}
                    aria-disabled={isOff || undefined}
                    className={classNames("picker-option", index === active && "picker-option-active", key === selectedKey && "picker-option-selected")}
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => !isOff && pick(item)}
                  >
                    {renderOption(item)}
                  </li>
                );
              })}
            </ul>
            {results.hasNextPage && (
              <div className="picker-more">
                <Button size="sm" variant="ghost" onClick={() => results.fetchNextPage()} pending={results.isFetchingNextPage}>
                  Show more
                </Button>
              </div>
            )}
          </div>
          )}
        </>
      )}
      {error ? <p className="field-error">{error}</p> : hint ? <div className="field-hint">{hint}</div> : null}
    </div>
  );
}
