import { useState } from 'react';
import { useT } from '../i18n';
import { ollamaCommand, userOs } from './ollama';

/** The exact OLLAMA_ORIGINS command for this system and this extension, with a copy button. */
export function OllamaCommand() {
  const t = useT();
  const cmd = ollamaCommand(userOs(), location.origin);
  const [copied, setCopied] = useState(false);
  return (
    <div className="command" data-testid="ollama-command">
      <pre>
        <code>{cmd.setup}</code>
      </pre>
      <div className="row">
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard.writeText(cmd.setup).then(
              () => setCopied(true),
              // No clipboard (permission refused): the command stays on screen to copy by hand.
              () => setCopied(false),
            )
          }
        >
          {t('copyCommand')}
        </button>
        <span role="status" className="small muted">
          {copied ? t('commandCopied') : ''}
        </span>
      </div>
      <p className="small muted">{t('ollamaManual')}</p>
      <pre>
        <code>{cmd.manual}</code>
      </pre>
    </div>
  );
}
