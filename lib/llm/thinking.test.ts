import { describe, expect, it } from 'vitest';
import { parseJsonLoose } from './json-text';
import { parsePartialJson } from './partial-json';
import { stripThinking, ThinkSplitter } from './thinking';

const THOUGHT = 'Maybe {"answer": "wrong"}, citing [P1]? No.';

describe('thinking is never the answer', () => {
  it('parseJsonLoose reads the JSON after a think block, not the braces inside it', () => {
    expect(parseJsonLoose(`<think>${THOUGHT}</think>\n{"answer": "right [P2]"}`)).toEqual({ answer: 'right [P2]' });
    expect(parseJsonLoose(`  <think>\n${THOUGHT}\n</think>\n\n\`\`\`json\n{"answer": "fenced"}\n\`\`\``)).toEqual({ answer: 'fenced' });
    // The template opened the block in the prompt: only the closing tag is in the reply.
    expect(parseJsonLoose(`${THOUGHT}</think>{"answer": "after"}`)).toEqual({ answer: 'after' });
    // Still thinking: there is no answer yet, and the thought's JSON is not taken for one.
    expect(() => parseJsonLoose(`<think>${THOUGHT}`)).toThrow(/no JSON/);
  });

  it('partial JSON starts after the thinking', () => {
    expect(parsePartialJson(`<think>${THOUGHT}`)).toBeUndefined();
    expect(parsePartialJson(`<think>${THOUGHT}</think>{"answer": "ri`)).toEqual({ answer: 'ri' });
  });

  it('the stream splitter separates thought and answer whatever the chunking', () => {
    const text = `<think>${THOUGHT}</think>\n\n{"answer": "ok"}`;
    for (const size of [1, 2, 3, 7, 100]) {
      const s = new ThinkSplitter();
      let answer = '';
      let thought = '';
      for (let i = 0; i < text.length; i += size) {
        const p = s.push(text.slice(i, i + size));
        answer += p.answer;
        thought += p.thinking;
      }
      answer += s.flush();
      expect([thought, answer]).toEqual([THOUGHT, '{"answer": "ok"}']);
    }
    const plain = new ThinkSplitter();
    expect(plain.push('<b>not a think tag').answer + plain.flush()).toBe('<b>not a think tag');
    expect(stripThinking('no thinking at all')).toBe('no thinking at all');
  });
});
