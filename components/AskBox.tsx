import { useState, type KeyboardEvent } from 'react';
import { useT } from './i18n';

/** Enter asks, Shift+Enter makes a new line. */
export function AskBox({ onAsk, disabled }: { onAsk(text: string): void; disabled?: boolean }) {
  const t = useT();
  const [text, setText] = useState('');
  const submit = () => {
    if (!text.trim() || disabled) return;
    onAsk(text.trim());
    setText('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };
  return (
    <form
      className="ask"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor="ask-input" className="sr-only">
        {t('askLabel')}
      </label>
      <textarea
        id="ask-input"
        value={text}
        rows={3}
        placeholder={t('askPlaceholder')}
        aria-describedby="ask-hint"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="row spread">
        <span id="ask-hint" className="muted small">
          {t('askHint')}
        </span>
        <button type="submit" className="primary" disabled={disabled || !text.trim()}>
          {t('send')}
        </button>
      </div>
    </form>
  );
}
