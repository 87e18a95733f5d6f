/** Web search providers, one block per entry of the registry. */
import { SEARCH_PROVIDERS, type SearchProviderId } from '@/lib/settings/search-providers';
import type { Settings, SettingsProblem } from '@/lib/settings/schema';
import { useT } from '../i18n';
import { Field, problemText, Toggle } from './fields';

type ProviderValues = { enabled: boolean; baseURL: string; apiKey?: string };

export function SearchSection({ search, problems, onChange }: { search: Settings['search']; problems: SettingsProblem[]; onChange: (id: SearchProviderId, patch: Partial<ProviderValues>) => void }) {
  const t = useT();
  return (
    <fieldset>
      <legend>{t('webSearch')}</legend>
      {SEARCH_PROVIDERS.map((def) => {
        const values = search[def.id] as ProviderValues;
        return (
          <div key={def.id} className="provider">
            <Toggle id={def.id} label={def.label} checked={values.enabled} onChange={(v) => onChange(def.id, { enabled: v })} />
            {values.enabled &&
              def.fields.map((f) => {
                const id = `${def.id}-${f.key}`;
                const label = `${def.label} — ${t(f.key === 'apiKey' ? 'apiKey' : 'baseUrl')}`;
                return (
                  <Field key={f.key} label={label} id={id} error={problemText(t, problems, `search.${def.id}.${f.key}`)}>
                    <input
                      id={id}
                      type={f.kind === 'secret' ? 'password' : 'url'}
                      autoComplete="off"
                      placeholder={f.placeholder}
                      value={values[f.key] ?? ''}
                      onChange={(e) => onChange(def.id, { [f.key]: e.target.value })}
                    />
                  </Field>
                );
              })}
          </div>
        );
      })}
    </fieldset>
  );
}
