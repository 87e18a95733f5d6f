/** Picking tabs with @ in the question box: the "@query" being typed at the caret, the tabs it
 * matches, the one the arrow keys are on, and what choosing one does (the "@query" leaves the
 * question, the tab joins the chosen ones, the sources become "tabs I choose"). */
import { useMemo, useState, type KeyboardEvent, type RefObject } from 'react';
import type { ComposerProps } from './Composer';
import type { ScopeTab } from './scope';
import { filterTabs, optionId, type PickerItem } from './TabPicker';

export interface Mention {
  start: number;
  query: string;
}

/** The "@query" being typed at the caret, if any. */
export function mentionAt(text: string, caret: number): Mention | undefined {
  const before = text.slice(0, caret);
  const m = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!m) return undefined;
  const query = m[2] ?? '';
  return { start: before.length - query.length - 1, query };
}

export interface MentionState {
  mention: Mention | undefined;
  setMention: (m: Mention | undefined) => void;
  /** Follows the text as it is typed: the "@query" at the caret, if any (returned). */
  setMentionAt: (text: string, caret: number) => Mention | undefined;
  /** The picker's list. */
  items: PickerItem[];
  /** The tab the arrow keys are on. */
  current: PickerItem | undefined;
  setActive: (tabId: number | undefined) => void;
  pick: (tab: ScopeTab) => void;
  /** A key pressed while the picker is open: true when the picker took it. */
  onKey: (e: KeyboardEvent<HTMLTextAreaElement>) => boolean;
}

type MentionProps = Pick<ComposerProps, 'text' | 'onText' | 'tabs' | 'chosen' | 'onChosen' | 'scope' | 'onScope'>;

export function useMention(p: MentionProps, box: RefObject<HTMLTextAreaElement | null>): MentionState {
  const [mention, setMention] = useState<Mention>();
  const [active, setActive] = useState<number>();
  const items: PickerItem[] = useMemo(() => (mention ? filterTabs(p.tabs.map(({ tab, skip }) => ({ tab, skip, chosen: p.chosen.includes(tab.id) })), mention.query) : []), [mention, p.tabs, p.chosen]);
  const pickable = items.filter((i) => !i.skip);
  const current = pickable.find((i) => i.tab.id === active) ?? pickable[0];

  const pick = (tab: ScopeTab) => {
    if (mention) {
      const end = mention.start + 1 + mention.query.length;
      p.onText((p.text.slice(0, mention.start) + p.text.slice(end)).replace(/^\s+/, ''));
    }
    if (!p.chosen.includes(tab.id)) p.onChosen([...p.chosen, tab.id]);
    if (p.scope.tabs !== 'chosen') p.onScope({ ...p.scope, tabs: 'chosen' });
    setMention(undefined);
    box.current?.focus();
  };

  const move = (down: boolean) => {
    const i = current ? pickable.indexOf(current) : -1;
    const next = pickable[(i + (down ? 1 : -1) + pickable.length) % Math.max(1, pickable.length)];
    setActive(next?.tab.id);
    document.getElementById(next ? optionId(next.tab.id) : '')?.scrollIntoView({ block: 'nearest' });
  };

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!mention) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') move(e.key === 'ArrowDown');
    else if ((e.key === 'Enter' || e.key === 'Tab') && current) pick(current.tab);
    else if (e.key === 'Escape') {
      e.stopPropagation();
      setMention(undefined);
    }
    // Nothing in the list can be chosen: Enter does not send "@chrome" as the question; the list
    // says why and how to close it (then Enter asks).
    else if (!(e.key === 'Enter' && !e.shiftKey)) return false;
    e.preventDefault();
    return true;
  };

  const setMentionAt = (text: string, caret: number) => {
    const found = mentionAt(text, caret);
    setMention(found);
    return found;
  };

  return { mention, setMention, setMentionAt, items, current, setActive, pick, onKey };
}
