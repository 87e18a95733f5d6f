/** The one settings schema (zod): the TypeScript type, the defaults, the validation the options
 * form shows and the lenient reading of stored settings all come from it. Stored in
 * browser.storage.local under `settings`, with a version (see ./migrations.ts); read by the
 * worker, the panel, the options page and the Node CLI (which builds one from flags). */
import { z } from 'zod';
import { SEARCH_PROVIDERS, providerSettingsShapes } from './search-providers';
import { intIn, numberIn, sendsKeyInClear, urlField, type ProblemCode } from './fields';

export const PROVIDER_PRESET_IDS = ['openai', 'ollama', 'lmstudio', 'openrouter', 'custom', 'builtin'] as const;
export type ProviderPreset = (typeof PROVIDER_PRESET_IDS)[number];

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

const llmSchema = z.object({
  preset: z.enum(PROVIDER_PRESET_IDS).default('openai'),
  /** OpenAI-compatible base URL, e.g. https://api.openai.com/v1 */
  baseURL: urlField.default(''),
  apiKey: z.string().trim().default(''),
  model: z.string().trim().default(''),
  /** Optional embeddings model on the same endpoint; empty disables dense ranking. */
  embeddingModel: z.string().trim().default(''),
  /** Time-out of one model call, in ms. */
  timeoutMs: intIn(5_000, 600_000).default(60_000),
  /** How hard a reasoning or thinking model thinks (OpenAI's reasoning_effort; Ollama's think).
   * Low by default: every stage is a short, grounded task. */
  reasoningEffort: z.enum(['none', 'minimal', 'low', 'medium', 'high']).optional(),
});

const searchSchema = z.object({
  ...providerSettingsShapes(),
  /** Result pages fetched and read per query and provider. */
  pagesPerQuery: intIn(0, 5).default(2),
  timeoutMs: intIn(1_000, 60_000).default(8_000),
});

const pipelineSchema = z.object({
  /** β′: retrieve when the model's confidence β < β′. 0 never retrieves, 1 always does. */
  betaThreshold: numberIn(0, 1).default(0.5),
  maxSteps: intIn(1, 12).default(6),
  maxRounds: intIn(1, 5).default(3),
  passagesPerStep: intIn(1, 12).default(4),
  /** Target passage size in characters. */
  passageChars: intIn(200, 3_000).default(1500),
  /** Faster answers: revise later steps in parallel, speculatively (uses more model calls when
   * steps change). Off by itself for servers that answer one request at a time. */
  speculate: z.boolean().default(true),
  /** Check this page: how many of the page's claims are checked, the most check-worthy first
   * (the default is measured: bench/README.md, part 6). */
  pageClaims: intIn(1, 40).default(12),
});

const privacySchema = z.object({
  /** Which tabs are read when no choice is made for the question (verify runs): the current window. */
  tabScope: z.enum(['window', 'all']).default('window'),
  excludedDomains: z.array(z.string().trim().toLowerCase()).default(DEFAULT_EXCLUDED_DOMAINS),
  allowIncognito: z.boolean().default(false),
  /** Read tabs on this machine and private networks (localhost, 10.x, 192.168.x, intranet names)
   * and fetch result pages there. Off: router pages, admin consoles and intranet wikis never
   * reach the model, and a search result can never make Ratify reach into the user's network. */
  privateNetwork: z.boolean().default(false),
  /** Runs older than this are deleted; 0 keeps everything. */
  retentionDays: intIn(0, 3_650).default(0),
  /** Read open tabs ahead of questions, as they finish loading (lib/retrieval/warm-tabs.ts), so a
   * question's cost does not grow with the number of tabs. Same rules as reading at question time;
   * nothing leaves the machine. */
  readAhead: z.boolean().default(true),
});

const uiSchema = z.object({ language: z.enum(['auto', 'en', 'zh-CN']).default('auto') });

/** Field by field, without the checks that relate fields (see settingsSchema). */
const fieldsSchema = z.object({
  llm: llmSchema.prefault({}),
  search: searchSchema.prefault({}),
  pipeline: pipelineSchema.prefault({}),
  privacy: privacySchema.prefault({}),
  ui: uiSchema.prefault({}),
});

export const settingsSchema = fieldsSchema.superRefine((s, ctx) => {
    if (s.llm.preset !== 'builtin') {
      if (!s.llm.baseURL) ctx.addIssue({ code: 'custom', path: ['llm', 'baseURL'], message: 'required' satisfies ProblemCode });
      if (!s.llm.model) ctx.addIssue({ code: 'custom', path: ['llm', 'model'], message: 'required' satisfies ProblemCode });
      // A key is a bearer credential: over plain http anyone on the path can read and reuse it.
      if (s.llm.apiKey && sendsKeyInClear(s.llm.baseURL)) ctx.addIssue({ code: 'custom', path: ['llm', 'baseURL'], message: 'url-insecure' satisfies ProblemCode });
    }
    for (const def of SEARCH_PROVIDERS) {
      const own = s.search[def.id] as Record<string, unknown>;
      if (!own.enabled) continue;
      const text = (key: string): string => (typeof own[key] === 'string' ? own[key] : '');
      for (const f of def.fields)
        if (f.requiredWhenEnabled && !text(f.key).trim()) ctx.addIssue({ code: 'custom', path: ['search', def.id, f.key], message: 'required' satisfies ProblemCode });
      if (text('apiKey').trim() && sendsKeyInClear(text('baseURL')))
        ctx.addIssue({ code: 'custom', path: ['search', def.id, 'baseURL'], message: 'url-insecure' satisfies ProblemCode });
    }
  });

export type Settings = z.output<typeof settingsSchema>;
export type LlmSettings = Settings['llm'];
export type SearchSettings = Settings['search'];
export type PipelineSettings = Settings['pipeline'];
export type PrivacySettings = Settings['privacy'];

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K] };
export type SettingsPatch = DeepPartial<Settings>;

/** The sub-schemas by section, for forms that read ranges and defaults back. */
export const SECTION_SCHEMAS = { llm: llmSchema, search: searchSchema, pipeline: pipelineSchema, privacy: privacySchema, ui: uiSchema };

/** Every default, filled in. */
export const DEFAULT_SETTINGS: Settings = fieldsSchema.parse({});

/** Settings from a patch, defaults filled in, without cross-field checks (a half-filled form or
 * an older stored object is still usable). A value of the wrong type or out of range is replaced
 * by its default: a corrupt entry never makes the whole extension unusable. */
export function withDefaults(stored: unknown, base: Settings = DEFAULT_SETTINGS): Settings {
  let raw: unknown = merge(base, stored ?? {});
  // Each pass replaces the offending values; a few passes settle any object.
  for (let pass = 0; pass < 5; pass++) {
    const r = fieldsSchema.safeParse(raw);
    if (r.success) return r.data;
    for (const issue of r.error.issues) raw = resetPath(raw, issue.path, base);
  }
  return base;
}

export interface SettingsProblem {
  /** Dotted path, e.g. "llm.baseURL". */
  field: string;
  message: ProblemCode;
}

/** Validation problems for the options page; empty when the settings can be saved. */
export function validateSettings(s: Settings): SettingsProblem[] {
  const r = settingsSchema.safeParse(s);
  if (r.success) return [];
  return r.error.issues.map((i) => ({ field: i.path.join('.'), message: toProblemCode(i.message) }));
}

/** True when an LLM endpoint is usable (built-in on-device models need no URL). */
export function isLlmConfigured(s: Settings): boolean {
  if (s.llm.preset === 'builtin') return true;
  return s.llm.baseURL.trim() !== '' && s.llm.model.trim() !== '';
}

function toProblemCode(m: string): ProblemCode {
  return m === 'required' || m === 'url-invalid' || m === 'url-scheme' || m === 'url-insecure' ? m : 'range';
}

function merge(base: unknown, patch: unknown): unknown {
  if (patch === undefined) return base;
  if (Array.isArray(base) || typeof base !== 'object' || base === null) return patch;
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) out[k] = merge(out[k], v);
  return out;
}

/** Replaces the value at `path` (cut at the first array index: a bad list item resets the list)
 * with the default's. */
function resetPath(raw: unknown, path: PropertyKey[], base: unknown): unknown {
  const keys: string[] = [];
  for (const k of path) {
    if (typeof k !== 'string') break;
    keys.push(k);
  }
  if (!keys.length) return base;
  const set = (node: unknown, dflt: unknown, rest: string[]): unknown => {
    if (!rest.length) return dflt;
    const [head, ...tail] = rest as [string, ...string[]];
    const obj = typeof node === 'object' && node !== null && !Array.isArray(node) ? { ...(node as Record<string, unknown>) } : {};
    const d = typeof dflt === 'object' && dflt !== null ? (dflt as Record<string, unknown>)[head] : undefined;
    obj[head] = set(obj[head], d, tail);
    if (obj[head] === undefined) delete obj[head];
    return obj;
  };
  return set(raw, base, keys);
}
