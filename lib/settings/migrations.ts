/** Stored settings carry a version; older objects are brought forward one step at a time.
 *
 * v1 (no `version` field): the options page stored every field, defaults included, so a user who
 * never touched a setting kept the default of the day they first saved, and later defaults never
 * reached them.
 * v2: only what differs from the defaults is stored (see `toStored`); v1 values equal to v1's
 * defaults are dropped, so the current defaults apply to them.
 * v3: privacy defaults tightened: tabs are read from the current window (was: all windows), and
 * tabs on this machine or a private network are not read (new `privacy.privateNetwork`, off). A
 * v2 object never held the old default scope (defaults were not stored), so it needs no change:
 * who had chosen a scope keeps it, everyone else gets the current window. */
import { DEFAULT_SETTINGS, type Settings } from './schema';

export const SETTINGS_VERSION = 3;

type Raw = Record<string, unknown>;

/** The defaults as they were in v1 (frozen here: v1 objects are compared with these). */
export const V1_DEFAULTS: Raw = {
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
  privacy: {
    tabScope: 'all',
    excludedDomains: [
      'mail.google.com', 'outlook.live.com', 'outlook.office.com', 'mail.yahoo.com', 'proton.me', 'mail.proton.me', '1password.com', 'bitwarden.com',
      'lastpass.com', 'dashlane.com', 'paypal.com', 'chase.com', 'bankofamerica.com', 'wellsfargo.com', 'citi.com', 'hsbc.com', 'barclays.co.uk',
    ],
    allowIncognito: false,
    retentionDays: 0,
  },
  ui: { language: 'auto' },
};

/** Step n → n + 1. */
const STEPS: Record<number, (raw: Raw) => Raw> = {
  1: (raw) => withoutEqual(raw, V1_DEFAULTS) as Raw,
  2: (raw) => raw,
};

/** Brings a stored object (any version, or nothing) to the current version's stored form. */
export function migrateSettings(stored: unknown): { raw: Raw; from: number } {
  const raw: Raw = isRecord(stored) ? { ...stored } : {};
  const from = typeof raw.version === 'number' && Number.isInteger(raw.version) ? raw.version : isRecord(stored) ? 1 : SETTINGS_VERSION;
  delete raw.version;
  let out = raw;
  for (let v = from; v < SETTINGS_VERSION; v++) {
    const step = STEPS[v];
    if (step) out = step(out);
  }
  return { raw: out, from };
}

/** What to store for these settings: the differences from the defaults, with the version. */
export function toStored(s: Settings): Raw {
  return { version: SETTINGS_VERSION, ...(withoutEqual(s, DEFAULT_SETTINGS) as Raw | undefined) };
}

function isRecord(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `value` without the leaves equal to `base`'s (undefined when nothing is left). */
function withoutEqual(value: unknown, base: unknown): unknown {
  if (isRecord(value) && isRecord(base)) {
    const out: Raw = {};
    for (const [k, v] of Object.entries(value)) {
      const rest = withoutEqual(v, base[k]);
      if (rest !== undefined) out[k] = rest;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return JSON.stringify(value) === JSON.stringify(base) ? undefined : value;
}
