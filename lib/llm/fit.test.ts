import { describe, expect, it } from 'vitest';
import { dataBlock } from '../pipeline/prompts';
import { shrinkPrompt } from './fit';

describe('shrinkPrompt', () => {
  it('keeps the first half of the passages, each cut at a sentence, and everything else', () => {
    const text = (i: number) => `Passage ${i} starts here. ${'It says something long about the topic. '.repeat(20)}`;
    const blocks = [1, 2, 3, 4].map((i) => dataBlock({ id: `P${i}`, title: `T${i}` }, text(i)));
    const user = `Step: revise this.\n\n${blocks.join('\n\n')}\n\nReply in JSON.`;
    const out = shrinkPrompt([{ role: 'system', content: 'Rules.' }, { role: 'user', content: user }]);
    expect(out).toBeDefined();
    const shrunk = out![1]!.content;
    expect(shrunk).toContain('id="P1"');
    expect(shrunk).toContain('id="P2"');
    expect(shrunk).not.toContain('id="P3"');
    expect(shrunk).toMatch(/^Step: revise this\./);
    expect(shrunk).toMatch(/Reply in JSON\.$/);
    expect(shrunk.length).toBeLessThan(user.length / 3);
    expect(out![0]).toEqual({ role: 'system', content: 'Rules.' });
    // Nothing left to cut: undefined, so the caller reports instead of retrying.
    expect(shrinkPrompt([{ role: 'user', content: 'short question' }])).toBeUndefined();
  });
});
