/** Where a question is written, with its sources chosen first: this tab, the tabs of this window,
 * all open tabs, or tabs picked with @ (a keyboard-driven picker), and web search on or off. It
 * shows which tabs will be read and which are skipped, and why. A question that is too long is
 * refused here, above the box, and the text stays. */
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { INPUT_LIMITS } from '@/lib/pipeline/input';
import type { TabScope } from '@/lib/core/run';
import { useT } from './i18n';
import { pageChosen, reasonKey, type ScopeChoice, type ScopePlan, type ScopeTab } from './scope';
import { SiteIcon } from './SiteIcon';
import { filterTabs, optionId, PICKER_ID, TabPicker, type PickerItem } from './TabPicker';

export interface ComposerProps {
  text: string;
  onText(text: string): void;
  onAsk(text: string): void;
  scope: ScopeChoice;
  onScope(s: ScopeChoice): void;
  /** Every open tab (the picker's list), with the reason it would be skipped, if any. */
  tabs: { tab: ScopeTab; skip?: string }[];
  /** The page the user is on, and why it cannot be read (if so). */
  page?: { tab: ScopeTab; skip?: string };
  plan: ScopePlan;
  chosen: number[];
  onChosen(ids: number[]): void;
}

const SCOPES: TabScope[] = ['page', 'window', 'all', 'chosen'];

/** The "@query" being typed at the caret, if any. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | undefined {
  const before = text.slice(0, caret);
  const m = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!m) return undefined;
  return { start: before.length - m[2]!.length - 1, query: m[2]! };
}

export function Composer(p: ComposerProps) {
  const t = useT();
  const box = useRef<HTMLTextAreaElement>(null);
  const [error, setError] = useState<string>();
  const [mention, setMention] = useState<{ start: number; query: string }>();
  const [active, setActive] = useState<number>();
  const items: PickerItem[] = useMemo(() => (mention ? filterTabs(p.tabs.map(({ tab, skip }) => ({ tab, skip, chosen: p.chosen.includes(tab.id) })), mention.query) : []), [mention, p.tabs, p.chosen]);
  const pickable = items.filter((i) => !i.skip);
  const current = pickable.find((i) => i.tab.id === active) ?? pickable[0];

  const submit = () => {
    const text = p.text.trim();
    if (!text) return;
    if (text.length > INPUT_LIMITS.ask) {
      setError(t('errQuestionTooLong', { n: text.length.toLocaleString(), max: INPUT_LIMITS.ask.toLocaleString() }));
      return;
    }
    setError(undefined);
    setMention(undefined);
    p.onAsk(text);
  };

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

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (mention) {
      const i = current ? pickable.indexOf(current) : -1;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const next = pickable[(i + (e.key === 'ArrowDown' ? 1 : -1) + pickable.length) % Math.max(1, pickable.length)];
        setActive(next?.tab.id);
        document.getElementById(next ? optionId(next.tab.id) : '')?.scrollIntoView({ block: 'nearest' });
        return;
      }
      if ((e.key === 'Enter' || e.key === 'Tab') && current) {
        e.preventDefault();
        pick(current.tab);
        return;
      }
      // Nothing in the list can be chosen: Enter does not send "@chrome" as the question; the
      // list says why and how to close it (then Enter asks).
      if (e.key === 'Enter' && !e.shiftKey) {
        e.preventDefault();
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setMention(undefined);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      submit();
    }
  };

  const onChange = (text: string, caret: number) => {
    p.onText(text);
    if (error && text.trim().length <= INPUT_LIMITS.ask) setError(undefined);
    const m = mentionAt(text, caret);
    setMention(m);
    if (!m) setActive(undefined);
  };

  const chosenTabs = p.chosen.map((id) => p.tabs.find((x) => x.tab.id === id)?.tab).filter((x): x is ScopeTab => x !== undefined);
  const skipped = p.plan.skipped.length;
  const summary =
    p.plan.read.length || skipped
      ? t(p.scope.web ? 'scopeSummaryWeb' : 'scopeSummary', { read: p.plan.read.length, skipped })
      : p.scope.web
        ? `${t('scopeNothing')} · ${t('webToggle')}`
        : t('scopeNothing');

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {error && (
        <p className="notice notice-error small" role="alert" data-testid="input-error">
          {error}
        </p>
      )}
      <div className="row scope-row">
        <label htmlFor="scope" className="small">
          {t('scopeLabel')}
        </label>
        <select id="scope" className="scope-select" value={p.scope.tabs} onChange={(e) => p.onScope({ ...p.scope, tabs: e.target.value as TabScope })}>
          {SCOPES.map((s) => (
            <option key={s} value={s}>
              {t(`scope_${s}`)}
            </option>
          ))}
        </select>
        <label className="checkbox small" htmlFor="web-toggle">
          <input id="web-toggle" type="checkbox" checked={p.scope.web} onChange={(e) => p.onScope({ ...p.scope, web: e.target.checked })} />
          {t('webToggle')}
        </label>
      </div>
      {p.page && (
        <ul className="row chips" aria-label={t('pageChipLabel')}>
          {pageChosen(p.scope) ? (
            <li className="chip page-chip" data-testid="page-chip">
              <SiteIcon url={p.page.tab.url} />
              <span className="chip-title">
                {t('thisPage')} {p.page.tab.title || p.page.tab.url}
                {p.page.skip && <span className="muted"> ({t('pageSkipped', { reason: reasonLabel(t, p.page.skip) })})</span>}
              </span>
              <button type="button" className="icon" aria-label={t('leavePageOut')} onClick={() => p.onScope({ ...p.scope, page: false })}>
                <span aria-hidden="true">✕</span>
              </button>
            </li>
          ) : (
            <li>
              <button type="button" className="link small" data-testid="add-page" onClick={() => p.onScope({ ...p.scope, page: true })}>
                + {t('addThisPage')}
              </button>
            </li>
          )}
        </ul>
      )}
      {p.scope.tabs === 'chosen' && (
        <ul className="row chips" aria-label={t('scope_chosen')}>
          {chosenTabs.map((tab) => (
            <li key={tab.id} className="chip">
              <SiteIcon url={tab.url} />
              <span className="chip-title">{tab.title || tab.url}</span>
              <button type="button" className="icon" aria-label={t('removeTab', { title: tab.title || tab.url })} onClick={() => p.onChosen(p.chosen.filter((id) => id !== tab.id))}>
                <span aria-hidden="true">✕</span>
              </button>
            </li>
          ))}
          <li>
            <button
              type="button"
              className="link small"
              onClick={() => {
                setMention({ start: p.text.length, query: '' });
                p.onText(`${p.text}${p.text && !/\s$/.test(p.text) ? ' ' : ''}@`);
                box.current?.focus();
              }}
            >
              + {t('chooseTabs')}
            </button>
          </li>
        </ul>
      )}
      <details className="scope-plan small" data-testid="scope-plan">
        <summary>
          <span data-testid="scope-summary">{summary}</span>
        </summary>
        <ul className="plan-list">
          {p.plan.read.map((tab) => (
            <li key={tab.id} data-plan="read">
              <SiteIcon url={tab.url} /> <span>{tab.title || tab.url}</span> <span className="muted">· {t('willRead')}</span>
            </li>
          ))}
          {p.plan.skipped.map(({ tab, reason }) => (
            <li key={tab.id} data-plan="skipped">
              <SiteIcon url={tab.url} /> <span>{tab.title || tab.url}</span> <span className="muted">· {t('pageSkipped', { reason: reasonLabel(t, reason) })}</span>
            </li>
          ))}
        </ul>
      </details>
      <div className="ask-box">
        {mention && <TabPicker items={items} active={current?.tab.id} onPick={pick} onHover={setActive} />}
        <label htmlFor="ask-input" className="sr-only">
          {t('askLabel')}
        </label>
        <textarea
          id="ask-input"
          ref={box}
          value={p.text}
          rows={3}
          placeholder={t('askPlaceholder')}
          aria-describedby="ask-hint"
          aria-invalid={!!error || undefined}
          aria-autocomplete="list"
          aria-controls={mention ? PICKER_ID : undefined}
          aria-activedescendant={mention && current ? optionId(current.tab.id) : undefined}
          onChange={(e) => onChange(e.target.value, e.target.selectionStart)}
          onKeyDown={onKeyDown}
          onBlur={() => setMention(undefined)}
        />
      </div>
      <div className="row spread composer-foot">
        <span id="ask-hint" className="muted small">
          {t('askHint')} · {t('chooseTabsHint')}
        </span>
        <button type="submit" className="primary" disabled={!p.text.trim()}>
          {t('send')}
        </button>
      </div>
    </form>
  );
}

function reasonLabel(t: ReturnType<typeof useT>, reason: string): string {
  const key = reasonKey(reason);
  return key ? t(key) : reason;
}
