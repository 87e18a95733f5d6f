import { createRoot } from 'react-dom/client';
import { browser } from 'wxt/browser';
import '@/components/theme.css';
import './panel.css';
import { I18nProvider } from '@/components/i18n';
import { NewerStoreNotice, StoreUnavailable, ViewBoundary } from '@/components/StoreNotice';
import { request } from '@/lib/browser/messaging';
import { pickLanguage } from '@/lib/i18n/messages';
import { storeHealth } from '@/lib/store/health';
import { App } from './App';

// The stored history is checked before the panel shows it (components/StoreNotice.tsx). What is
// outside App speaks the browser's language, as App does until the settings are read.
const root = createRoot(document.getElementById('root')!);
const lang = pickLanguage('auto', browser.i18n?.getUILanguage?.() ?? navigator.language);
void storeHealth().then((health) =>
  root.render(
    <I18nProvider lang={lang}>
      {/* The worker keeps which run the panel shows: it is asked to show none (resolves once saved). */}
      <ViewBoundary onReset={() => request('run/show', { id: null }).then(() => undefined)}>
        {health.ok ? (
          <>
            {health.newer && <NewerStoreNotice newer={health.newer} />}
            <App />
          </>
        ) : (
          <StoreUnavailable error={health.error} />
        )}
      </ViewBoundary>
    </I18nProvider>,
  ),
);
