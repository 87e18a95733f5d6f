/** Part 4b's rows and table (bench/extension/many-tabs.ts measures them; bench/run.ts prints them). */
export interface Timing {
  draftMs: number;
  firstPassageMs: number;
  doneMs: number;
}
export interface ManyTabsRow {
  tabs: number;
  cold: Timing;
  warm: Timing;
  readAhead: Timing;
  workerHeapBytes: number;
  storageBytes: number;
}

export function formatManyTabs(rows: ManyTabsRow[]): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const one = rows.find((r) => r.tabs === 1);
  const ratio = (r: ManyTabsRow, k: 'cold' | 'warm' | 'readAhead') => (one ? ` (${(r[k].doneMs / one[k].doneMs).toFixed(2)}×)` : '');
  return [
    '| open tabs | cold: draft · first passage · done | warm 2nd question: done | read ahead: draft · done | worker heap | storage |',
    '| ---: | --- | --- | --- | ---: | ---: |',
    ...rows.map((r) => `| ${r.tabs} | ${s(r.cold.draftMs)} · ${s(r.cold.firstPassageMs)} · ${s(r.cold.doneMs)}${ratio(r, 'cold')} | ${s(r.warm.doneMs)}${ratio(r, 'warm')} | ${s(r.readAhead.draftMs)} · ${s(r.readAhead.doneMs)}${ratio(r, 'readAhead')} | ${(r.workerHeapBytes / 2 ** 20).toFixed(1)} MB | ${(r.storageBytes / 2 ** 20).toFixed(1)} MB |`),
  ].join('\n');
}

