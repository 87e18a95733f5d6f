/** The first thing a newcomer sees: three ways to give Ratify a model, each finished right here —
 * the browser's built-in model (downloaded with progress when needed), Ollama on this computer
 * (with the exact command that lets it answer), or an API key (OpenAI, OpenRouter, other). */
import { useState } from 'react';
import { PROVIDER_PRESETS, type LlmSettings } from '@/lib/settings/schema';
import { BUILTIN_MODEL_ID } from '@/lib/llm/builtin-availability';
import { DEFAULT_SETTINGS } from '@/lib/settings/schema';
import { useT } from '../i18n';
import { ConnectForm } from './ConnectForm';
import { OllamaCommand } from './OllamaCommand';
import { useBuiltinModel } from './use-builtin';

type KeyProvider = 'openai' | 'openrouter' | 'custom';

export function Welcome({ onSave, onOpenSettings }: { onSave: (llm: LlmSettings, ms?: number) => Promise<void>; onOpenSettings: () => void }) {
  const t = useT();
  const builtin = useBuiltinModel();
  const [keyProvider, setKeyProvider] = useState<KeyProvider>('openai');
  const chooseBuiltin = () => onSave({ ...DEFAULT_SETTINGS.llm, preset: 'builtin', baseURL: '', apiKey: '', model: BUILTIN_MODEL_ID });
  const s = builtin.state;
  return (
    <section className="welcome" data-testid="onboarding" aria-labelledby="welcome-title">
      <h2 id="welcome-title">{t('onboardingTitle')}</h2>
      <p>{t('onboardingBody')}</p>

      <details className="way" name="way">
        <summary>{t('wayBuiltin')}</summary>
        <p className="small muted">{t('wayBuiltinBody')}</p>
        {s.kind === 'checking' && <p className="small">{t('builtinChecking')}</p>}
        {s.kind === 'unavailable' && <p className="small">{t('builtinUnavailable')}</p>}
        {s.kind === 'available' && (
          <button type="button" className="primary" onClick={() => void chooseBuiltin()}>
            {t('builtinUse')}
          </button>
        )}
        {s.kind === 'downloadable' && (
          <button type="button" className="primary" onClick={() => void builtin.download().then((ok) => (ok ? chooseBuiltin() : undefined))}>
            {t('builtinDownloadChrome')}
          </button>
        )}
        {s.kind === 'downloading' && (
          <p className="small" role="status">
            <progress max={100} value={s.progress} aria-label={t('wayBuiltin')} /> {t('builtinDownloading', { p: s.progress })}
          </p>
        )}
        {s.kind === 'failed' && (
          <p className="notice notice-error small" role="alert">
            {s.message}
          </p>
        )}
      </details>

      <details className="way" name="way">
        <summary>{t('wayOllama')}</summary>
        <p className="small muted">{t('wayOllamaBody')}</p>
        <OllamaCommand />
        <ConnectForm id="ollama" preset="ollama" baseURL={PROVIDER_PRESETS.ollama.baseURL} withKey={false} editableUrl onSave={onSave} />
      </details>

      <details className="way" name="way">
        <summary>{t('wayKey')}</summary>
        <p className="small muted">{t('wayKeyBody')}</p>
        <div className="field">
          <label htmlFor="key-provider">{t('provider')}</label>
          <select id="key-provider" value={keyProvider} onChange={(e) => setKeyProvider(e.target.value as KeyProvider)}>
            <option value="openai">{PROVIDER_PRESETS.openai.label}</option>
            <option value="openrouter">{PROVIDER_PRESETS.openrouter.label}</option>
            <option value="custom">{t('otherProvider')}</option>
          </select>
        </div>
        <ConnectForm
          key={keyProvider}
          id="key"
          preset={keyProvider}
          baseURL={keyProvider === 'custom' ? '' : PROVIDER_PRESETS[keyProvider].baseURL}
          withKey
          editableUrl={keyProvider === 'custom'}
          onSave={onSave}
        />
      </details>

      <p>
        <button type="button" className="link" onClick={onOpenSettings}>
          {t('onboardingAction')}
        </button>
      </p>
    </section>
  );
}
