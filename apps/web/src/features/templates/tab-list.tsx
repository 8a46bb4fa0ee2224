import { useRef, type KeyboardEvent, type ReactNode } from "react";
import { classNames } from "../../lib/class-names.ts";

/** One tab; `note` sits beside its label (a "default" marker, an "empty" hint). */
export type TabItem<T extends string> = { value: T; label: string; note?: ReactNode };

/** The id of the panel a tab controls, for the panel's own `id` and `aria-labelledby`. */
export function tabIds(idPrefix: string, value: string): { tab: string; panel: string } {
  return { tab: `${idPrefix}-tab-${value}`, panel: `${idPrefix}-panel-${value}` };
}

/**
 * WAI-ARIA tabs: one tab stop for the whole row, arrow keys, Home and End move between tabs and
 * select them. The caller renders the selected panel with the ids from `tabIds`.
 */
export function TabList<T extends string>({
  label,
  idPrefix,
  tabs,
  selected,
  onSelect,
  size = "md",
  children,
}: {
  label: string;
  idPrefix: string;
  tabs: TabItem<T>[];
  selected: T;
  onSelect: (value: T) => void;
  size?: "md" | "sm";
  /** Controls at the end of the row, such as "Add locale". */
  children?: ReactNode;
}) {
  const listRef = useRef<HTMLDivElement>(null);

  function move(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = tabs.length - 1;
    const target =
      event.key === "ArrowRight" ? (index === last ? 0 : index + 1)
      : event.key === "ArrowLeft" ? (index === 0 ? last : index - 1)
      : event.key === "Home" ? 0
      : event.key === "End" ? last
      : null;
    if (target === null) return;
    event.preventDefault();
    const tab = tabs[target];
    if (!tab) return;
    onSelect(tab.value);
    listRef.current?.querySelector<HTMLButtonElement>(`#${CSS.escape(tabIds(idPrefix, tab.value).tab)}`)?.focus();
  }

  return (
    <div className={classNames("template-tabs", size === "sm" && "template-tabs-sm")}>
      <div role="tablist" aria-label={label} ref={listRef} className="template-tablist">
        {tabs.map((tab, index) => {
          const ids = tabIds(idPrefix, tab.value);
          const isSelected = tab.value === selected;
          return (
            <button
              key={tab.value}
              type="button"
              role="tab"
              id={ids.tab}
              aria-selected={isSelected}
              aria-controls={isSelected ? ids.panel : undefined}
              tabIndex={isSelected ? 0 : -1}
              className={classNames("template-tab", isSelected && "active")}
              onClick={() => onSelect(tab.value)}
              onKeyDown={(event) => move(event, index)}
            >
              {tab.label}
              {tab.note}
            </button>
          );
        })}
      </div>
      {children}
    </div>
  );
}
