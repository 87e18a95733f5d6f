/**
 * The whole local test world in one call: the fixture site, search providers answering from the
 * site's articles, and an OpenAI-compatible LLM. Used by the e2e tests, the benchmark and the demo.
 *
 *   const h = await startHarness();
 *   h.llm.setResponder(byStage({ draft: { json: { steps: ['…'] } } }));
 *   await configure(h.settingsPatch());   // point Ratify at the fakes
 *   …
 *   await h.close();
 */
import type { SettingsPatch } from '../../lib/settings/schema.ts';
import { startFakeLlm, type FakeLlm, type FakeLlmOptions } from './fake-llm.ts';
import { SEARCH_PROVIDERS, startFakeSearch, type FakeSearch } from './fake-search.ts';
import { FAKE_SEARCH } from './search/registry.ts';
import { startFixtureSite, type FixtureSite } from './fixture-site.ts';

export * from './fake-llm.ts';
export * from './fake-search.ts';
export * from './fixture-site.ts';
export * from './llm-script.ts';

export const HARNESS_API_KEY = 'sk-ratify-test-0123456789';

export interface HarnessOptions {
  /** Fixed ports (default: any free port). */
  ports?: { llm?: number; search?: number; site?: number };
  /** Extra fake-LLM options; the API key defaults to HARNESS_API_KEY (pass apiKey: undefined for none). */
  llm?: Omit<FakeLlmOptions, 'port'>;
}

export interface Harness {
  llm: FakeLlm;
  search: FakeSearch;
  site: FixtureSite;
  /** The key the fake LLM expects ('' when started without one: it then accepts anything). */
  apiKey: string;
  /** Ratify settings pointing at the fakes: LLM endpoint, key and model, every search provider's
   * base URL and key. Which providers are enabled is left to the defaults (Wikipedia only). */
  settingsPatch(): SettingsPatch;
  /** Printable summary of the URLs. */
  describe(): string;
  close(): Promise<void>;
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const llmOpts: FakeLlmOptions = { apiKey: HARNESS_API_KEY, ...opts.llm, port: opts.ports?.llm };
  // Started in order: the search corpus needs the site's origin. If a later start fails, close
  // what is already running so a failed test run leaves no servers behind.
  const site = await startFixtureSite({ port: opts.ports?.site });
  let search: FakeSearch | undefined;
  try {
    search = await startFakeSearch({ port: opts.ports?.search, siteOrigin: site.origin });
    const llm = await startFakeLlm(llmOpts);
    const s = search;
    return {
      llm,
      search: s,
      site,
      apiKey: llmOpts.apiKey ?? '',
      settingsPatch: () => ({
        llm: { preset: 'custom', baseURL: llm.baseURL, apiKey: llmOpts.apiKey ?? '', model: 'fake-llm' },
        search: Object.fromEntries(SEARCH_PROVIDERS.map((p) => [p, FAKE_SEARCH[p].settings(s.urls[p], s.keys[p] ?? '')])),
        // The fixture site the results link to runs on this machine (127.0.0.1), which result
        // pages may reach only with the user's private-network switch on (SECURITY.md).
        privacy: { privateNetwork: true },
      }),
      describe: () =>
        [
          `fixture site   ${site.origin}/  (demo: ${site.url('/demo.html')})`,
          `fake LLM       ${llm.baseURL}  (key: ${llmOpts.apiKey ?? 'none'}, models: GET ${llm.baseURL}/models)`,
          ...SEARCH_PROVIDERS.map((p) => FAKE_SEARCH[p].describe(s.urls[p], s.keys[p] ?? '')),
        ].join('\n'),
      close: async () => {
        await Promise.all([llm.close(), s.close(), site.close()]);
      },
    };
  } catch (err) {
    await Promise.all([site.close(), search?.close()]);
    throw err;
  }
}
