/** The @-mention picker: open tabs with their favicon and title, filtered by what follows the @,
 * driven from the question box (arrow keys move, Enter or Tab picks, Escape closes). Tabs the
 * privacy rules keep out are listed, greyed, with the reason. */
import type { ScopeTab } from './scope';
import { useT } from './i18n';
import { reasonKey } from './scope';
import { SiteIcon } from './SiteIcon';

export interface PickerItem {
  tab: ScopeTab;
  /** Why it would be skipped (then it cannot be picked). */
  skip?: string;
  chosen: boolean;
}

export function filterTabs(items: PickerItem[], query: string): PickerItem[] {
  const q = query.trim().toLowerCase();
  if (!q) return items;
  return items.filter((i) => i.tab.title.toLowerCase().includes(q) || i.tab.url.toLowerCase().includes(q));
}

export const PICKER_ID = 'tab-picker';
export const optionId = (tabId: number) => `tab-option-${tabId}`;

export function TabPicker({ items, active, onPick, onHover }: { items: PickerItem[]; active: number | undefined; onPick: (tab: ScopeTab) => void; onHover: (tabId: number) => void }) {
  const t = useT();
  return (
    <ul id={PICKER_ID} role="listbox" aria-label={t('tabPicker')} className="tab-picker">
      {!items.length && (
        <li className="muted small" role="presentation">
          {t('noTabMatches')}
        </li>
      )}
      {!items.some((i) => !i.skip) && (
        <li className="small picker-note" role="presentation" data-testid="picker-nothing">
          {t('pickerNothing')}
        </li>
      )}
      {items.map(({ tab, skip, chosen }) => {
        const key = skip ? reasonKey(skip) : undefined;
        return (
          <li
            key={tab.id}
            id={optionId(tab.id)}
            role="option"
            aria-selected={tab.id === active}
            aria-disabled={!!skip || undefined}
            aria-checked={chosen}
            className={`tab-option${tab.id === active ? ' active' : ''}${skip ? ' disabled' : ''}`}
            // Keep the focus in the question box: the picker is driven from there.
            onMouseDown={(e) => e.preventDefault()}
            onMouseEnter={() => onHover(tab.id)}
            onClick={() => !skip && onPick(tab)}
          >
            <SiteIcon url={tab.url} />
            <span className="tab-title">{tab.title || tab.url}</span>
            {chosen && <span aria-hidden="true">✓</span>}
            {skip && <span className="small muted">{key ? t(key) : skip}</span>}
          </li>
        );
      })}
    </ul>
  );
}
