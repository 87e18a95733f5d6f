import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabDef<K extends string> {
  id: K;
  label: ReactNode;
}

/** A WAI-ARIA tab list: one tab in the Tab order, arrow keys (and Home/End) move between tabs and
 * select them, each tab controls its panel (`<id>-panel`). */
export function TabList<K extends string>({ tabs, selected, onSelect, label }: { tabs: TabDef<K>[]; selected: K; onSelect: (k: K) => void; label: string }) {
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const onKeyDown = (e: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.id === selected);
    const next = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? i + 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : undefined;
    if (next === undefined) return;
    e.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length];
    if (!tab) return;
    onSelect(tab.id);
    refs.current.get(tab.id)?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className="row tablist" onKeyDown={onKeyDown}>
      {tabs.map((t) => (
        <button
          key={t.id}
          ref={(el) => {
            if (el) refs.current.set(t.id, el);
            else refs.current.delete(t.id);
          }}
          type="button"
          role="tab"
          id={`${t.id}-tab`}
          aria-selected={t.id === selected}
          aria-controls={`${t.id}-panel`}
          tabIndex={t.id === selected ? 0 : -1}
          onClick={() => onSelect(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
