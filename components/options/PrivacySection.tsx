/** What Ratify may read, and how long it keeps runs. Deleting data goes through the worker, which
 * owns the stores (runs and the page cache). */
import { useState } from 'react';
import { request } from '@/lib/browser/messaging';
import { requestHostAccess, revokeHostAccess } from '@/lib/browser/host-access';
import { useHostAccess } from '../use-host-access';
import { SECTION_SCHEMAS, type Settings } from '@/lib/settings/schema';
import { useT } from '../i18n';
import { Field, Toggle } from './fields';

const RETENTION_CHOICES = [7, 30, 90, 365];

export function PrivacySection({ privacy, onChange }: { privacy: Settings['privacy']; onChange: (patch: Partial<Settings['privacy']>) => void }) {
  const t = useT();
  const [domains, setDomains] = useState(privacy.excludedDomains.join('\n'));
  const [dataStatus, setDataStatus] = useState('');
  const scopes = SECTION_SCHEMAS.privacy.shape.tabScope.unwrap().options;
  return (
    <fieldset>
      <legend>{t('privacy')}</legend>
      <p>
        {/* PRIVACY.md as shipped with this version (entrypoints/privacy). */}
        <a href="/privacy.html" target="_blank" rel="noopener" data-testid="privacy-policy">
          {t('privacyPolicy')}
        </a>
      </p>
      <SiteAccess />
      <Field label={t('tabScope')} id="tabScope">
        <select id="tabScope" value={privacy.tabScope} onChange={(e) => onChange({ tabScope: e.target.value as Settings['privacy']['tabScope'] })}>
          {scopes.map((s) => (
            <option key={s} value={s}>
              {t(s === 'window' ? 'tabScopeWindow' : 'tabScopeAll')}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('excludedDomains')} id="excluded">
        <textarea
          id="excluded"
          rows={5}
          value={domains}
          onChange={(e) => {
            setDomains(e.target.value);
            onChange({ excludedDomains: e.target.value.split(/[\s,]+/).map((d) => d.trim().toLowerCase()).filter(Boolean) });
          }}
        />
      </Field>
      <Toggle id="incognito" label={t('allowIncognito')} checked={privacy.allowIncognito} onChange={(v) => onChange({ allowIncognito: v })} />
      <Toggle id="privateNetwork" label={t('privateNetwork')} checked={privacy.privateNetwork} onChange={(v) => onChange({ privateNetwork: v })} />
      <Toggle id="readAhead" label={t('readAhead')} checked={privacy.readAhead} onChange={(v) => onChange({ readAhead: v })} />
      <Field label={t('retention')} id="retention">
        <select id="retention" value={privacy.retentionDays} onChange={(e) => onChange({ retentionDays: Number(e.target.value) })}>
          <option value={0}>{t('retentionForever')}</option>
          {RETENTION_CHOICES.map((d) => (
            <option key={d} value={d}>
              {t('retentionDays', { n: d })}
            </option>
          ))}
        </select>
      </Field>
      <div className="row">
        <button
          type="button"
          className="danger"
          onClick={() => {
            if (!confirm(t('confirmDeleteAll'))) return;
            setDataStatus('');
            request('data/delete-all', {}).then(
              () => setDataStatus(t('deletedAll')),
              (err: unknown) => setDataStatus(err instanceof Error ? err.message : String(err)),
            );
          }}
        >
          {t('deleteAllData')}
        </button>
        <span role="status">{dataStatus}</span>
      </div>
    </fieldset>
  );
}

/** Whether Ratify may read sites (the optional host permission), with the button that asks the
 * browser (inside the click, as it requires) or gives the permission back. */
function SiteAccess() {
  const t = useT();
  const granted = useHostAccess();
  const [error, setError] = useState('');
  if (granted === undefined) return null;
  const fail = (e: unknown) => setError(e instanceof Error ? e.message : String(e));
  return (
    <div className="field site-access-setting" data-testid="site-access-setting" data-state={granted ? 'granted' : 'not-granted'}>
      <strong>{t('accessSetting')}</strong>
      <span className="small" role="status">
        {granted ? t('accessOn') : t('accessOff')}
      </span>
      {!granted && <span className="small muted">{t('accessWhyShort')}</span>}
      <div className="row">
        {granted ? (
          <button type="button" onClick={() => void revokeHostAccess().then(() => setError(''), fail)}>
            {t('accessRevoke')}
          </button>
        ) : (
          // Synchronously in the click: the browser's prompt needs the user's gesture.
          <button type="button" className="primary" onClick={() => void requestHostAccess().then(() => setError(''), fail)}>
            {t('accessAllow')}
          </button>
        )}
        {error && <span className="small">{error}</span>}
      </div>
    </div>
  );
}
