/** The one settings schema. Stored in browser.storage.local under `settings`; read by the worker,
 * the panel, the options page and the Node CLI (which builds one from flags). */

export type ProviderPreset = 'openai' | 'ollama' | 'lmstudio' | 'openrouter' | 'custom' | 'builtin';

export interface LlmSettings {
  preset: ProviderPreset;
  /** OpenAI-compatible base URL, e.g. https://api.openai.com/v1 */
  baseURL: string;
  apiKey: string;
  model: string;
  /** Optional embeddings model on the same endpoint; empty disables dense ranking. */
  embeddingModel: string;
  /** Per-call time-out in ms. */
  timeoutMs: number;
}

export interface SearchSettings {
  wikipedia: { enabled: boolean; baseURL: string };
  searxng: { enabled: boolean; baseURL: string };
  brave: { enabled: boolean; baseURL: string; apiKey: string };
  tavily: { enabled: boolean; baseURL: string; apiKey: string };
  /** Result pages fetched and read per query and provider. */
  pagesPerQuery: number;
  timeoutMs: number;
}

export interface PipelineSettings {
  /** β′: retrieve when the model's confidence β < β′. 0 never retrieves, 1 always does. */
  betaThreshold: number;
  maxSteps: number;
  maxRounds: number;
  passagesPerStep: number;
  /** Target passage size in characters. */
  passageChars: number;
}

export interface PrivacySettings {
  tabScope: 'window' | 'all';
  excludedDomains: string[];
  allowIncognito: boolean;
  /** Runs older than this are deleted; 0 keeps everything. */
  retentionDays: number;
}

export interface Settings {
  llm: LlmSettings;
  search: SearchSettings;
  pipeline: PipelineSettings;
  privacy: PrivacySettings;
  ui: { language: 'auto' | 'en' | 'zh-CN' };
}

export const PROVIDER_PRESETS: Record<Exclude<ProviderPreset, 'custom' | 'builtin'>, { baseURL: string; needsKey: boolean; label: string }> = {
  openai: { baseURL: 'https://api.openai.com/v1', needsKey: true, label: 'OpenAI' },
  ollama: { baseURL: 'http://localhost:11434/v1', needsKey: false, label: 'Ollama' },
  lmstudio: { baseURL: 'http://localhost:1234/v1', needsKey: false, label: 'LM Studio' },
  openrouter: { baseURL: 'https://openrouter.ai/api/v1', needsKey: true, label: 'OpenRouter' },
};

export const DEFAULT_EXCLUDED_DOMAINS = [
  'mail.google.com',
  'outlook.live.com',
  'outlook.office.com',
  'mail.yahoo.com',
  'proton.me',
  'mail.proton.me',
  '1password.com',
  'bitwarden.com',
  'lastpass.com',
  'dashlane.com',
  'paypal.com',
  'chase.com',
  'bankofamerica.com',
  'wellsfargo.com',
  'citi.com',
  'hsbc.com',
  'barclays.co.uk',
];

export const DEFAULT_SETTINGS: Settings = {
  llm: { preset: 'openai', baseURL: '', apiKey: '', model: '', embeddingModel: '', timeoutMs: 60_000 },
  search: {
    wikipedia: { enabled: true, baseURL: 'https://{lang}.wikipedia.org' },
    searxng: { enabled: false, baseURL: '' },
    brave: { enabled: false, baseURL: 'https://api.search.brave.com', apiKey: '' },
    tavily: { enabled: false, baseURL: 'https://api.tavily.com', apiKey: '' },
    pagesPerQuery: 2,
    timeoutMs: 8_000,
  },
  pipeline: { betaThreshold: 0.5, maxSteps: 6, maxRounds: 3, passagesPerStep: 4, passageChars: 600 },
  privacy: { tabScope: 'all', excludedDomains: DEFAULT_EXCLUDED_DOMAINS, allowIncognito: false, retentionDays: 0 },
  ui: { language: 'auto' },
};

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K] };
export type SettingsPatch = DeepPartial<Settings>;

/** Fill whatever a stored (possibly older) settings object lacks with defaults. */
export function withDefaults(stored: SettingsPatch | undefined | null, base: Settings = DEFAULT_SETTINGS): Settings {
  return merge(base, stored ?? {}) as Settings;
}

function merge(base: unknown, patch: unknown): unknown {
  if (patch === undefined) return base;
  if (Array.isArray(base) || typeof base !== 'object' || base === null) return patch;
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) out[k] = merge(out[k], v);
  return out;
}

/** True when an LLM endpoint is usable (built-in on-device models need no URL). */
export function isLlmConfigured(s: Settings): boolean {
  if (s.llm.preset === 'builtin') return true;
  return s.llm.baseURL.trim() !== '' && s.llm.model.trim() !== '';
}

export interface SettingsProblem {
  field: string;
  message: string;
}

/** Validation messages for the options page; empty when the settings can be saved. */
export function validateSettings(s: Settings): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  const url = (field: string, value: string, required: boolean) => {
    if (!value.trim()) {
      if (required) problems.push({ field, message: 'required' });
      return;
    }
    try {
      const u = new URL(value.replace('{lang}', 'en'));
      if (u.protocol !== 'http:' && u.protocol !== 'https:') problems.push({ field, message: 'url-scheme' });
    } catch {
      problems.push({ field, message: 'url-invalid' });
    }
  };
  if (s.llm.preset !== 'builtin') {
    url('llm.baseURL', s.llm.baseURL, true);
    if (!s.llm.model.trim()) problems.push({ field: 'llm.model', message: 'required' });
  }
  if (s.search.searxng.enabled) url('search.searxng.baseURL', s.search.searxng.baseURL, true);
  if (s.search.brave.enabled && !s.search.brave.apiKey.trim()) problems.push({ field: 'search.brave.apiKey', message: 'required' });
  if (s.search.tavily.enabled && !s.search.tavily.apiKey.trim()) problems.push({ field: 'search.tavily.apiKey', message: 'required' });
  const p = s.pipeline;
  if (!(p.betaThreshold >= 0 && p.betaThreshold <= 1)) problems.push({ field: 'pipeline.betaThreshold', message: 'range-0-1' });
  if (!(Number.isInteger(p.maxSteps) && p.maxSteps >= 1 && p.maxSteps <= 12)) problems.push({ field: 'pipeline.maxSteps', message: 'range-1-12' });
  if (!(Number.isInteger(p.maxRounds) && p.maxRounds >= 1 && p.maxRounds <= 5)) problems.push({ field: 'pipeline.maxRounds', message: 'range-1-5' });
  if (!(Number.isInteger(p.passagesPerStep) && p.passagesPerStep >= 1 && p.passagesPerStep <= 12)) problems.push({ field: 'pipeline.passagesPerStep', message: 'range-1-12' });
  return problems;
}
