/** Where a question is written, with its sources chosen first: this tab, the tabs of this window,
 * all open tabs, or tabs picked with @ (a keyboard-driven picker), and web search on or off. It
 * shows which tabs will be read and which are skipped, and why. A question that is too long is
 * refused here, above the box, and the text stays. */
import { useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { INPUT_LIMITS } from '@/lib/pipeline/input';
import { useT } from './i18n';
import type { ScopeChoice, ScopePlan, ScopeTab } from './scope';
import { ChosenTabs, PageChip, ScopePlanList, ScopeRow } from './ComposerScope';
import { optionId, PICKER_ID, TabPicker } from './TabPicker';
import { useMention, type MentionState } from './use-mention';

export { mentionAt } from './use-mention';

export interface ComposerProps {
  text: string;
  onText: (text: string) => void;
  onAsk: (text: string) => void;
  scope: ScopeChoice;
  onScope: (s: ScopeChoice) => void;
  /** Every open tab (the picker's list), with the reason it would be skipped, if any. */
  tabs: { tab: ScopeTab; skip?: string }[];
  /** The page the user is on, and why it cannot be read (if so). */
  page?: { tab: ScopeTab; skip?: string };
  plan: ScopePlan;
  chosen: number[];
  onChosen: (ids: number[]) => void;
}

/** The question as it is sent: trimmed, and refused (the text stays) when it is too long. */
function useSubmit(p: ComposerProps, m: MentionState) {
  const t = useT();
  const [error, setError] = useState<string>();
  const submit = () => {
    const text = p.text.trim();
    if (!text) return;
    if (text.length > INPUT_LIMITS.ask) {
      setError(t('errQuestionTooLong', { n: text.length.toLocaleString(), max: INPUT_LIMITS.ask.toLocaleString() }));
      return;
    }
    setError(undefined);
    m.setMention(undefined);
    p.onAsk(text);
  };
  // A question brought back within the limit is no longer refused.
  const edited = (text: string) => error && text.trim().length <= INPUT_LIMITS.ask && setError(undefined);
  return { error, submit, edited };
}

export function Composer(p: ComposerProps) {
  const t = useT();
  const box = useRef<HTMLTextAreaElement>(null);
  const m = useMention(p, box);
  const { error, submit, edited } = useSubmit(p, m);
  const chosenTabs = p.chosen.map((id) => p.tabs.find((x) => x.tab.id === id)?.tab).filter((x): x is ScopeTab => x !== undefined);
  const chooseMore = () => {
    m.setMention({ start: p.text.length, query: '' });
    p.onText(`${p.text}${p.text && !/\s$/.test(p.text) ? ' ' : ''}@`);
    box.current?.focus();
  };
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
      <ScopeRow scope={p.scope} onScope={p.onScope} />
      {p.page && <PageChip page={p.page} scope={p.scope} onScope={p.onScope} />}
      {p.scope.tabs === 'chosen' && <ChosenTabs tabs={chosenTabs} onRemove={(id) => p.onChosen(p.chosen.filter((c) => c !== id))} onChooseMore={chooseMore} />}
      <ScopePlanList plan={p.plan} web={p.scope.web} />
      <AskBox p={p} box={box} m={m} invalid={!!error} onSubmit={submit} onEdited={edited} />
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

/** The question box, with the @ picker over it: Enter asks, Shift+Enter is a new line. */
function AskBox({ p, box, m, invalid, onSubmit, onEdited }: { p: ComposerProps; box: RefObject<HTMLTextAreaElement | null>; m: MentionState; invalid: boolean; onSubmit: () => void; onEdited: (text: string) => void }) {
  const t = useT();
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing || m.onKey(e)) return;
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      onSubmit();
    }
  };
  const onChange = (text: string, caret: number) => {
    p.onText(text);
    onEdited(text);
    const found = m.setMentionAt(text, caret);
    if (!found) m.setActive(undefined);
  };
  const active = m.mention && m.current ? optionId(m.current.tab.id) : undefined;
  return (
    <div className="ask-box">
      {m.mention && <TabPicker items={m.items} active={m.current?.tab.id} onPick={m.pick} onHover={m.setActive} />}
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
        aria-invalid={invalid || undefined}
        aria-autocomplete="list"
        aria-controls={m.mention ? PICKER_ID : undefined}
        aria-activedescendant={active}
        onChange={(e) => onChange(e.target.value, e.target.selectionStart)}
        onKeyDown={onKeyDown}
        onBlur={() => m.setMention(undefined)}
      />
    </div>
  );
}
