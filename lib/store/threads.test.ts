import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { newRun } from '../pipeline/run-state';
import type { Run } from '../core/run';
import { RatifyDb } from './db';
import { runStore } from './runs';
import { threadStore } from './threads';

const done = (run: Run, answer: string): Run => ({ ...run, status: 'done', answer, answerFinal: true });

describe('threads', () => {
  it('groups a conversation’s runs, first question as title, newest thread first, and finds them by any run', async () => {
    const d = new RatifyDb(`th-${Math.random()}`);
    const runs = runStore(d);
    const threads = threadStore(d);
    await runs.put(done(newRun('a1', 'ask', { text: 'Who was Marie Curie?', thread: { id: 'tA' } }, 1000), 'A physicist [1].'));
    await runs.put(done(newRun('b1', 'ask', { text: 'How tall is Mount Fuji?' }, 2000), '3,776 m.'));
    await runs.put({ ...done(newRun('a2', 'ask', { text: 'Where was she born?', thread: { id: 'tA' } }, 3000), 'In **Warsaw** [1].'), origins: ['typed', 'tab', 'web'], gate: { label: 'incomplete', rewritten: 'Where was Marie Curie born?', beta: 0.2, betaThreshold: 0.5, retrieve: true, origins: ['typed'] } });

    const list = await threads.list();
    expect(list.map((t) => [t.id, t.title, t.runCount, t.lastRunId])).toEqual([
      ['tA', 'Who was Marie Curie?', 2, 'a2'],
      ['b1', 'How tall is Mount Fuji?', 1, 'b1'],
    ]);
    expect((await threads.list({ query: 'WARSAW' })).map((t) => t.id)).toEqual(['tA']);
    expect((await threads.runs('tA')).map((r) => r.id)).toEqual(['a1', 'a2']);
    // The gate reads what was understood and answered, without citation markers or Markdown.
    // Each turn keeps its origins: the first run's were not recorded (anything), the second's
    // answer could carry what its tabs showed, its rewrite only what the gate saw.
    expect(await threads.turns('tA')).toEqual([
      { question: 'Who was Marie Curie?', answer: 'A physicist.', questionOrigins: ['typed'], answerOrigins: ['typed', 'page', 'tab', 'web'] },
      { question: 'Where was Marie Curie born?', answer: 'In Warsaw.', questionOrigins: ['typed'], answerOrigins: ['typed', 'tab', 'web'] },
    ]);
    await runs.delete('a1');
    expect((await threads.list())[0]).toMatchObject({ id: 'tA', title: 'Where was she born?', runCount: 1 });
  });

  it('upgrading a version-1 database makes every stored run a thread of its own', async () => {
    const name = `th-up-${Math.random()}`;
    const v1 = new Dexie(name);
    v1.version(1).stores({ runs: 'id, createdAt, status', runIndex: 'id, createdAt', pages: 'url, storedAt' });
    const old = done(newRun('old1', 'ask', { text: 'An old question' }, 500), 'An old answer.');
    await v1.table('runs').put(old);
    await v1.table('runIndex').put({ id: 'old1', createdAt: 500, mode: 'ask', status: 'done', text: 'An old question', haystack: 'an old question', sourceCount: 0 });
    v1.close();

    const d = new RatifyDb(name);
    expect((await d.runIndex.get('old1'))?.threadId).toBe('old1');
    expect(await threadStore(d).list()).toEqual([expect.objectContaining({ id: 'old1', title: 'An old question', runCount: 1 })]);
    expect((await threadStore(d).runs('old1')).map((r) => r.id)).toEqual(['old1']);
  });
});
