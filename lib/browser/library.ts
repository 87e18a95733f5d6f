import type { Run } from '../pipeline/types';
import type { Library } from '../retrieval/types';
import type { Settings } from '../settings/schema';

/** The library a run searches: the user's open tabs and web search, read through the browser.
 * Until the retrieval module lands this library is empty, so every step is judged without
 * evidence (and says so in the trace). */
export function createBrowserLibrary(_run: Run, _settings: Settings): Library {
  return {
    async retrieve() {
      return { passages: [], sources: [], errors: [{ provider: 'library', message: 'No retrieval sources are available yet.' }] };
    },
  };
}
