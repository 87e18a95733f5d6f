/**
 * A realistic history for the history-list benchmark and its e2e spec: N stored runs shaped like
 * the ones the worker writes (lib/pipeline/run-state.ts newRun + the pipeline's events), with
 * steps, query rounds, passages, the library trace, numbered sources and usage, so records have
 * the size and shape of real ones. Deterministic (seeded PRNG), so the spec can predict what the
 * list must show.
 *
 * Records are built in Node with the app's own `newRun` and `summarize` (the runIndex row), then
 * written into the extension's IndexedDB from an extension page with raw IndexedDB, using the
 * schema read from the app's RatifyDb class (lib/store/db.ts): page.evaluate cannot import Dexie,
 * and deriving the schema keeps the writer from drifting away from db.ts.
 */
import type { Page } from '@playwright/test';
import { newRun } from '../../lib/pipeline/run-state.ts';
import type { ClaimResult, GateDecision, Run, Source, StepState, Verdict } from '../../lib/core/run.ts';
import type { Passage, SourceStatus } from '../../lib/core/passage.ts';
import { RatifyDb } from '../../lib/store/db.ts';
import { summarize, type RunSummary } from '../../lib/store/runs.ts';

interface Topic {
  name: string;
  site: string;
  facts: string[];
}

// Subjects a user of a fact-checking panel plausibly asks about; each carries a few sentences the
// generator recombines into drafts, passages and answers.
const TOPICS: Topic[] = [
  { name: 'Marie Curie', site: 'en.wikipedia.org', facts: ['Marie Curie was born in Warsaw on 7 November 1867.', 'She shared the 1903 Nobel Prize in Physics with Pierre Curie and Henri Becquerel.', 'She won the 1911 Nobel Prize in Chemistry for the discovery of polonium and radium.', 'She was the first woman to become a professor at the University of Paris.'] },
  { name: 'the Eiffel Tower', site: 'www.toureiffel.paris', facts: ['The Eiffel Tower was completed in March 1889 for the Exposition Universelle.', 'It is 330 metres tall including its antennas.', 'The design is credited to Maurice Koechlin and Émile Nouguier.', 'It was the tallest man-made structure in the world until 1930.'] },
  { name: 'Mount Fuji', site: 'www.japan-guide.com', facts: ['Mount Fuji is an active stratovolcano that last erupted in 1707.', 'It rises 3,776 metres above sea level, the highest peak in Japan.', 'It became a UNESCO World Heritage Site in 2013.', 'The climbing season runs from early July to early September.'] },
  { name: 'the Louvre', site: 'www.louvre.fr', facts: ['The Louvre opened as a museum on 10 August 1793.', 'Its glass pyramid by I. M. Pei was inaugurated in 1989.', 'It is the most-visited art museum in the world.', 'The Mona Lisa has hung there since the early nineteenth century.'] },
  { name: 'Tu Youyou', site: 'www.nobelprize.org', facts: ['Tu Youyou discovered artemisinin, a drug against malaria.', 'She received the 2015 Nobel Prize in Physiology or Medicine.', 'Her team drew on a fourth-century text by Ge Hong.', 'She was born in Ningbo in 1930.'] },
  { name: 'the Great Barrier Reef', site: 'www.gbrmpa.gov.au', facts: ['The Great Barrier Reef stretches for over 2,300 kilometres.', 'It is made of some 2,900 individual reefs.', 'Mass coral bleaching events struck it in 2016, 2017 and 2020.', 'It was listed as a World Heritage Site in 1981.'] },
  { name: 'the Apollo 11 mission', site: 'www.nasa.gov', facts: ['Apollo 11 landed on the Moon on 20 July 1969.', 'Neil Armstrong and Buzz Aldrin walked on the surface while Michael Collins orbited.', 'The lunar module was named Eagle.', 'The crew returned to Earth on 24 July 1969.'] },
  { name: 'the Krakatoa volcano', site: 'volcano.si.edu', facts: ['The 1883 eruption of Krakatoa was one of the deadliest volcanic events on record.', 'Its explosion was heard nearly 4,800 kilometres away.', 'Anak Krakatau emerged from the caldera in 1927.', 'Ash from the eruption lowered global temperatures the following year.'] },
  { name: 'DNA', site: 'www.genome.gov', facts: ['The double-helix structure of DNA was described in 1953.', 'Rosalind Franklin\'s X-ray images were key evidence for the structure.', 'The human genome has about three billion base pairs.', 'The Human Genome Project was declared complete in 2003.'] },
  { name: 'the Panama Canal', site: 'pancanal.com', facts: ['The Panama Canal opened on 15 August 1914.', 'It is about 82 kilometres long.', 'An expanded set of locks opened in 2016.', 'Control passed from the United States to Panama in 1999.'] },
  { name: 'penicillin', site: 'www.acs.org', facts: ['Alexander Fleming noticed the effect of penicillin in 1928.', 'Howard Florey and Ernst Chain turned it into a usable drug around 1940.', 'The three shared the 1945 Nobel Prize in Physiology or Medicine.', 'Mass production began during the Second World War.'] },
  { name: 'the Amazon river', site: 'www.britannica.com', facts: ['The Amazon carries more water than any other river.', 'Its basin covers about seven million square kilometres.', 'Whether it or the Nile is longer is still debated.', 'It has no bridges along its main stem.'] },
];

const QUESTION_FORMS = [
  (t: string) => `When did ${t} become famous, and why?`,
  (t: string) => `What are the most important facts about ${t}?`,
  (t: string) => `Is it true that ${t} is older than most people think?`,
  (t: string) => `Give me a short history of ${t}.`,
  (t: string) => `What do historians still disagree about regarding ${t}?`,
  (t: string) => `How is ${t} usually described in encyclopedias?`,
];

const FILLER = [
  'Contemporary accounts describe the period in some detail.',
  'Later historians revisited these figures with new archival material.',
  'The numbers quoted vary slightly between sources.',
  'This is discussed at length in the section on its legacy.',
  'Several biographies and documentaries cover the subject.',
  'Museums and archives keep related records and photographs.',
  'Estimates published before 1950 tend to be less precise.',
  'The account below follows the most widely cited references.',
];

/** mulberry32: small, fast, deterministic; quality is irrelevant here. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedOptions {
  /** createdAt of the newest run (default Date.now()). */
  now?: number;
  seed?: number;
  /** Minutes between consecutive runs (default 47). */
  spacingMin?: number;
}

/** `count` runs, oldest first; run k is `spacingMin` minutes after run k−1. */
export function makeRuns(count: number, opts: SeedOptions = {}): Run[] {
  const rnd = prng(opts.seed ?? 20240601);
  const now = opts.now ?? Date.now();
  const spacing = (opts.spacingMin ?? 47) * 60_000;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const paragraph = (topic: Topic, sentences: number) => Array.from({ length: sentences }, () => (rnd() < 0.6 ? pick(topic.facts) : pick(FILLER))).join(' ');

  const passage = (topic: Topic, origin: 'tab' | 'web', k: number): Passage => {
    const slug = topic.name.replace(/^the /, '').replace(/\W+/g, '_');
    const url = `https://${topic.site}/wiki/${slug}${k % 3 ? `#section-${k % 3}` : ''}`;
    const start = int(0, 20_000);
    const text = paragraph(topic, int(6, 9));
    return { id: `p${hex(10)}`, url, title: topic.name.replace(/^the /, '').replace(/^\w/, (c) => c.toUpperCase()), origin, text, headingPath: [pick(['History', 'Overview', 'Legacy', 'Background']), pick(['Early years', 'Reception', 'Details'])], start, end: start + text.length, ...(origin === 'tab' ? { tabId: int(100, 999) } : { provider: pick(['wikipedia', 'searxng', 'brave']) }) };
  };

  const library = (topic: Topic): SourceStatus[] =>
    Array.from({ length: int(5, 10) }, (_, k) => {
      const status = pick(['read', 'read', 'read', 'cached', 'skipped', 'failed'] as const);
      return { url: `https://${topic.site}/page/${k}`, title: `${topic.name} — ${pick(['overview', 'timeline', 'facts', 'history'])}`, origin: k < 2 ? 'tab' : 'web', status, ...(status === 'skipped' ? { reason: 'excluded domain' } : status === 'failed' ? { reason: 'time-out after 5 s' } : {}), ...(k >= 2 ? { provider: 'wikipedia' } : {}) };
    });

  const usage = (calls: number) => {
    const inputTokens = calls * int(900, 2500);
    const outputTokens = calls * int(80, 260);
    return { calls, inputTokens, outputTokens, byStage: { gate: { calls: 1, inputTokens: 400, outputTokens: 40 }, revise: { calls: Math.max(0, calls - 2), inputTokens: inputTokens - 800, outputTokens: outputTokens - 120 } } };
  };

  const sourcesFrom = (ps: Passage[]): Source[] =>
    ps.slice(0, int(2, 5)).map((p, i) => ({ n: i + 1, passageId: p.id, url: p.url, title: p.title, site: new URL(p.url).hostname, origin: p.origin, quote: p.text.slice(0, int(60, 160)), ...(p.tabId !== undefined ? { tabId: p.tabId } : {}) }));

  const runs: Run[] = [];
  for (let k = 0; k < count; k++) {
    const topic = pick(TOPICS);
    const createdAt = now - (count - 1 - k) * spacing;
    const kind = rnd();
    let run: Run;
    if (kind < 0.15) {
      // Verify: a selection from a page, one step per claim, verdicts and a corrected passage.
      const claims = topic.facts.slice(0, int(2, 4));
      const page = { url: `https://news.example.com/${topic.site}/${k}`, title: `${topic.name}: what we know`, surrounding: paragraph(topic, 5), tabId: int(100, 999) };
      run = newRun(uuid(), 'verify', { text: claims.join(' '), page }, createdAt);
      const steps: StepState[] = [];
      const results: ClaimResult[] = [];
      const all: Passage[] = [];
      claims.forEach((claim, index) => {
        const ps = Array.from({ length: 3 }, (_, j) => passage(topic, j === 0 ? 'tab' : 'web', j));
        all.push(...ps);
        const verdict = pick(['supported', 'supported', 'corrected', 'unverifiable'] as const satisfies readonly Verdict[]);
        steps.push({ index, draft: claim, sentence: claim, revised: claim, status: 'revised', queries: [{ round: 1, query: claim, passages: ps, sufficient: true }], citations: [ps[0]!.id], verdict, note: `${verdict} by the evidence` });
        results.push({ claim, sentence: claim, verdict, explanation: `${verdict} by the evidence`, sources: [index + 1], ...(verdict === 'corrected' ? { corrected: claim.replace(/\d{4}/, (y) => String(Number(y) + 1)) } : {}) });
      });
      run = { ...run, steps, library: library(topic), sources: sourcesFrom(all), claims: results, corrected: results.map((r) => r.corrected ?? r.claim).join(' '), usage: usage(claims.length + 2) };
    } else if (kind < 0.45) {
      // Confident: the gate answers directly, no retrieval.
      const q = pick(QUESTION_FORMS)(topic.name);
      run = newRun(uuid(), 'ask', { text: q }, createdAt);
      const gate: GateDecision = { label: 'clear', beta: 0.6 + rnd() * 0.35, betaThreshold: 0.5, retrieve: false };
      run = { ...run, gate, answer: paragraph(topic, int(3, 6)), usage: usage(2) };
    } else {
      // RAT: draft steps, one or two search rounds per step, revised steps, cited answer.
      const q = pick(QUESTION_FORMS)(topic.name);
      run = newRun(uuid(), 'ask', { text: q }, createdAt);
      const gate: GateDecision = { label: 'clear', beta: 0.15 + rnd() * 0.3, betaThreshold: 0.5, retrieve: true };
      const steps: StepState[] = [];
      const all: Passage[] = [];
      const n = int(2, 6);
      for (let index = 0; index < n; index++) {
        const draft = pick(topic.facts);
        const rounds = rnd() < 0.3 ? 2 : 1;
        const queries = Array.from({ length: rounds }, (_, r) => {
          const ps = Array.from({ length: 3 }, (_, j) => passage(topic, j === 0 && rnd() < 0.3 ? 'tab' : 'web', j + r));
          all.push(...ps);
          return { round: r + 1, query: `${topic.name} ${draft.split(' ').slice(2, 7).join(' ')}`, passages: ps, sufficient: r === rounds - 1 };
        });
        const cited = queries[rounds - 1]!.passages[0]!;
        steps.push({ index, draft, revised: rnd() < 0.4 ? `${draft.replace(/\.$/, '')}, according to ${topic.site}.` : draft, status: rnd() < 0.5 ? 'revised' : 'unchanged', queries, citations: [cited.id], quotes: { [cited.id]: cited.text.slice(0, 90) } });
      }
      const sources = sourcesFrom(all);
      const answer = steps.map((s, i) => `${s.revised ?? s.draft} [${(i % sources.length) + 1}]`).join(' ');
      run = { ...run, gate, steps, library: library(topic), sources, answer, usage: usage(n + 3) };
    }
    const status = rnd() < 0.03 ? pick(['error', 'cancelled'] as const) : 'done';
    runs.push({ ...run, model: 'gpt-4o-mini @ api.openai.com', status, updatedAt: createdAt + int(2_000, 40_000), ...(status === 'error' ? { error: { code: 'timeout', message: 'The model did not answer within 60 s.' } } : {}) });
  }
  return runs;
}

/** What the history list should show for `query` (the same rule as runStore().list). */
export function expectedList(runs: Run[], query = '', limit = 500): RunSummary[] {
  const q = query.trim().toLowerCase();
  return runs
    .map(summarize)
    .filter((s) => !q || s.haystack.includes(q))
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, limit);
}

interface StoreSchema {
  name: string;
  keyPath: string;
  indexes: { name: string; keyPath: string | string[]; unique: boolean; multiEntry: boolean }[];
}

/** The IndexedDB database RatifyDb opens: its name, IDB version (Dexie uses verno × 10) and stores. */
export function idbSchema(): { name: string; version: number; stores: StoreSchema[] } {
  const d = new RatifyDb(); // constructing does not open it, so this works in Node
  return {
    name: d.name,
    version: Math.round(d.verno * 10),
    stores: d.tables.map((t) => ({
      name: t.name,
      keyPath: t.schema.primKey.keyPath as string, // db.ts declares single-field primary keys only
      indexes: t.schema.indexes.map((i) => ({ name: i.name, keyPath: i.keyPath as string | string[], unique: !!i.unique, multiEntry: !!i.multi })),
    })),
  };
}

/** Writes `runs` (and their runIndex rows) into the extension's IndexedDB from `page`, which must
 * be an extension page (same origin as the worker and the panel). Batched so no single
 * page.evaluate carries more than a few megabytes. `clear` first empties runs and runIndex, so
 * the history holds exactly these runs. */
export async function storeRuns(page: Page, runs: Run[], { clear = false, batch = 200 }: { clear?: boolean; batch?: number } = {}): Promise<void> {
  const schema = idbSchema();
  for (let i = 0; i < runs.length || (clear && i === 0); i += batch) {
    const slice = runs.slice(i, i + batch);
    const clearFirst = clear && i === 0;
    await page.evaluate(
      ({ schema, clearFirst, rows }) =>
        new Promise<void>((resolve, reject) => {
          const req = indexedDB.open(schema.name, schema.version);
          // Only when the app has not created the database yet: create it exactly as Dexie would.
          req.onupgradeneeded = () => {
            const db = req.result;
            for (const s of schema.stores) {
              if (db.objectStoreNames.contains(s.name)) continue;
              const os = db.createObjectStore(s.name, { keyPath: s.keyPath });
              for (const ix of s.indexes) os.createIndex(ix.name, ix.keyPath, { unique: ix.unique, multiEntry: ix.multiEntry });
            }
          };
          req.onerror = () => reject(req.error ?? new Error('The database could not be opened.'));
          req.onsuccess = () => {
            const db = req.result;
            const tx = db.transaction(['runs', 'runIndex'], 'readwrite');
            if (clearFirst) {
              tx.objectStore('runs').clear();
              tx.objectStore('runIndex').clear();
            }
            for (const r of rows) {
              tx.objectStore('runs').put(r.run);
              tx.objectStore('runIndex').put(r.summary);
            }
            tx.oncomplete = () => {
              db.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error ?? new Error('The runs could not be written.'));
          };
        }),
      { schema, clearFirst, rows: slice.map((run) => ({ run, summary: summarize(run) })) },
    );
  }
}
