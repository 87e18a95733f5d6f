import { describe, expect, it } from 'vitest';
import { SEARCH_PROVIDERS } from './search-providers';
import { rangeOf } from './fields';
import { migrateSettings, SETTINGS_VERSION, toStored, V1_DEFAULTS } from './migrations';
import { DEFAULT_SETTINGS, isLlmConfigured, SECTION_SCHEMAS, validateSettings, withDefaults } from './schema';

describe('settings', () => {
  it('fills what stored settings lack with defaults, keeping what they have', () => {
    const s = withDefaults({ llm: { baseURL: 'http://localhost:11434/v1', model: 'llama3' }, pipeline: { maxSteps: 3 } });
    expect(s.llm.baseURL).toBe('http://localhost:11434/v1');
    expect(s.llm.timeoutMs).toBe(DEFAULT_SETTINGS.llm.timeoutMs);
    expect(s.pipeline.maxSteps).toBe(3);
    expect(s.pipeline.betaThreshold).toBe(0.5);
    expect(s.privacy.excludedDomains).toContain('mail.google.com');
  });

  it('replaces a corrupt stored value by its default instead of failing', () => {
    const s = withDefaults({ llm: { model: 'm', timeoutMs: 'soon' }, pipeline: { maxSteps: -4 }, privacy: { excludedDomains: ['ok.com', 7] }, ui: 'zh' });
    expect(s.llm.model).toBe('m');
    expect(s.llm.timeoutMs).toBe(DEFAULT_SETTINGS.llm.timeoutMs);
    expect(s.pipeline.maxSteps).toBe(DEFAULT_SETTINGS.pipeline.maxSteps);
    expect(s.privacy.excludedDomains).toEqual(DEFAULT_SETTINGS.privacy.excludedDomains);
    expect(s.ui.language).toBe('auto');
  });

  it('is configured only with a base URL and a model', () => {
    expect(isLlmConfigured(DEFAULT_SETTINGS)).toBe(false);
    expect(isLlmConfigured(withDefaults({ llm: { baseURL: 'https://api.openai.com/v1' } }))).toBe(false);
    expect(isLlmConfigured(withDefaults({ llm: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini' } }))).toBe(true);
  });

  it('explains invalid values field by field', () => {
    const problems = validateSettings(
      withDefaults({ llm: { baseURL: 'https://x', model: '' }, pipeline: { maxSteps: 3 }, search: { brave: { enabled: true, apiKey: '' }, searxng: { enabled: true } } }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        { field: 'llm.model', message: 'required' },
        { field: 'search.brave.apiKey', message: 'required' },
        { field: 'search.searxng.baseURL', message: 'required' },
      ]),
    );
    const typed = { ...DEFAULT_SETTINGS, llm: { ...DEFAULT_SETTINGS.llm, baseURL: 'ftp://x', model: 'm' }, pipeline: { ...DEFAULT_SETTINGS.pipeline, betaThreshold: 1.5, maxSteps: 0 } };
    expect(validateSettings(typed)).toEqual(
      expect.arrayContaining([
        { field: 'llm.baseURL', message: 'url-scheme' },
        { field: 'pipeline.betaThreshold', message: 'range' },
        { field: 'pipeline.maxSteps', message: 'range' },
      ]),
    );
    expect(validateSettings(withDefaults({ llm: { baseURL: 'http://127.0.0.1:1234/v1', model: 'm' } }))).toEqual([]);
  });

  it('refuses to send a key over plain http except to this computer', () => {
    const llm = (baseURL: string, apiKey = 'sk-secret') => validateSettings(withDefaults({ llm: { baseURL, model: 'm', apiKey } }));
    expect(llm('http://api.example.com/v1')).toEqual([{ field: 'llm.baseURL', message: 'url-insecure' }]);
    expect(llm('http://192.168.1.20:8000/v1')).toEqual([{ field: 'llm.baseURL', message: 'url-insecure' }]);
    for (const ok of ['https://api.example.com/v1', 'http://localhost:11434/v1', 'http://127.0.0.1:1234/v1', 'http://[::1]:8080/v1']) expect(llm(ok)).toEqual([]);
    // Without a key there is nothing to leak: a keyless http server on the LAN stays allowed.
    expect(llm('http://192.168.1.20:8000/v1', '')).toEqual([]);
    const brave = validateSettings(withDefaults({ llm: { baseURL: 'https://x', model: 'm' }, search: { brave: { enabled: true, apiKey: 'k', baseURL: 'http://search.example' } } }));
    expect(brave).toEqual([{ field: 'search.brave.baseURL', message: 'url-insecure' }]);
  });

  it('gives the options form the ranges it shows, from the schema itself', () => {
    expect(rangeOf(SECTION_SCHEMAS.pipeline.shape.maxSteps)).toEqual({ min: 1, max: 12, step: 1 });
    expect(rangeOf(SECTION_SCHEMAS.pipeline.shape.betaThreshold)).toMatchObject({ min: 0, max: 1 });
  });

  it('has settings and defaults for every search provider in the registry', () => {
    for (const def of SEARCH_PROVIDERS) {
      expect(DEFAULT_SETTINGS.search[def.id]).toBeDefined();
      expect(typeof DEFAULT_SETTINGS.search[def.id].enabled).toBe('boolean');
    }
  });
});

describe('settings migrations', () => {
  it('brings a v1 object forward: values equal to the v1 defaults give way to the current defaults, choices stay', () => {
    const v1 = structuredClone(V1_DEFAULTS) as { llm: Record<string, unknown>; pipeline: Record<string, unknown>; privacy: Record<string, unknown> };
    v1.llm.baseURL = 'http://localhost:11434/v1';
    v1.llm.model = 'qwen3:8b';
    v1.pipeline.maxSteps = 4;
    const { raw, from } = migrateSettings(v1);
    expect(from).toBe(1);
    expect(raw).toEqual({ llm: { baseURL: 'http://localhost:11434/v1', model: 'qwen3:8b' }, pipeline: { maxSteps: 4 } });
    const s = withDefaults(raw);
    expect(s.pipeline.maxSteps).toBe(4);
    expect(s.pipeline.passageChars).toBe(DEFAULT_SETTINGS.pipeline.passageChars);
    expect(s.privacy.tabScope).toBe(DEFAULT_SETTINGS.privacy.tabScope);
  });

  it('v2 → v3: the tab scope defaults to the current window and private-network tabs are off, unless chosen', () => {
    const untouched = migrateSettings({ version: 2, privacy: { allowIncognito: true } });
    expect(untouched.from).toBe(2);
    const s = withDefaults(untouched.raw);
    expect(s.privacy).toMatchObject({ tabScope: 'window', privateNetwork: false, allowIncognito: true });
    // A choice made under v2 is kept.
    expect(withDefaults(migrateSettings({ version: 2, privacy: { tabScope: 'all' } }).raw).privacy.tabScope).toBe('all');
    // v1 stored its default 'all' explicitly; it gives way to the new default like every v1 default.
    expect(withDefaults(migrateSettings(structuredClone(V1_DEFAULTS)).raw).privacy.tabScope).toBe('window');
    expect(toStored(withDefaults({ privacy: { privateNetwork: true } }))).toEqual({ version: 3, privacy: { privateNetwork: true } });
  });

  it('stores only differences from the defaults, with the version, and reads them back unchanged', () => {
    const s = withDefaults({ llm: { baseURL: 'https://api.openai.com/v1', model: 'gpt-5-mini', apiKey: 'sk-1' }, ui: { language: 'zh-CN' } });
    const stored = toStored(s);
    expect(stored).toEqual({ version: SETTINGS_VERSION, llm: { baseURL: 'https://api.openai.com/v1', model: 'gpt-5-mini', apiKey: 'sk-1' }, ui: { language: 'zh-CN' } });
    const back = migrateSettings(stored);
    expect(back.from).toBe(SETTINGS_VERSION);
    expect(withDefaults(back.raw)).toEqual(s);
  });

  it('treats nothing stored as the current version with every default', () => {
    const { raw, from } = migrateSettings(undefined);
    expect(from).toBe(SETTINGS_VERSION);
    expect(withDefaults(raw)).toEqual(DEFAULT_SETTINGS);
  });
});
