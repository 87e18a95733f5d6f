import { afterEach, describe, expect, it } from 'vitest';
import { withDefaults } from '../settings/schema';
import { BUILTIN_MODEL_ID, builtinAvailable, withBuiltinDefault } from './builtin';
import { createLlmClient, listModels } from './client';
import { LlmError } from './errors';

/** A stand-in for Chrome's LanguageModel global: answers are scripted per prompt. */
function installFakePromptApi(answer: (prompt: string, constraint?: unknown) => string, availability = 'available') {
  const seen: { initialPrompts: unknown; prompt: string; constraint?: unknown }[] = [];
  (globalThis as Record<string, unknown>).LanguageModel = {
    availability: () => Promise.resolve(availability),
    create: ({ initialPrompts }: { initialPrompts: unknown }) => Promise.resolve({
      destroy() {},
      prompt: () => Promise.resolve(''),
      promptStreaming(prompt: string, opts: { signal?: AbortSignal; responseConstraint?: unknown }) {
        seen.push({ initialPrompts, prompt, constraint: opts.responseConstraint });
        const text = answer(prompt, opts.responseConstraint);
        const pieces = text.match(/.{1,5}/gs) ?? [];
        return new ReadableStream<string>({
          pull(c) {
            if (opts.signal?.aborted) return c.error(new DOMException('aborted', 'AbortError'));
            const next = pieces.shift();
            if (next === undefined) c.close();
            else c.enqueue(next);
          },
        });
      },
    }),
  };
  return seen;
}

const builtin = withDefaults({ llm: { preset: 'builtin', model: BUILTIN_MODEL_ID } }).llm;

afterEach(() => {
  delete (globalThis as Record<string, unknown>).LanguageModel;
});

describe('the built-in (on-device) model', () => {
  it('is used by default only when nothing is configured and the browser has it ready', async () => {
    expect(await builtinAvailable()).toBe(false);
    expect((await withBuiltinDefault(withDefaults({}))).llm.preset).toBe('openai');
    installFakePromptApi(() => 'ok', 'downloadable');
    expect((await withBuiltinDefault(withDefaults({}))).llm.preset).toBe('openai');
    installFakePromptApi(() => 'ok');
    expect((await withBuiltinDefault(withDefaults({}))).llm).toMatchObject({ preset: 'builtin', model: BUILTIN_MODEL_ID });
    const configured = withDefaults({ llm: { baseURL: 'http://127.0.0.1:1/v1', model: 'm' } });
    expect(await withBuiltinDefault(configured)).toBe(configured);
  });

  it('streams chat through the same client contract, with earlier turns as initial prompts', async () => {
    const seen = installFakePromptApi(() => 'Paris is the capital of France.');
    const client = createLlmClient(builtin);
    const deltas: string[] = [];
    const text = await client.chat({
      stage: 'answer',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Capital of France?' },
      ],
      onDelta: (d) => deltas.push(d),
    });
    expect(text).toBe('Paris is the capital of France.');
    expect(deltas.length).toBeGreaterThan(1);
    expect(seen[0]).toMatchObject({ initialPrompts: [{ role: 'system', content: 'Be brief.' }], prompt: 'Capital of France?' });
    expect(client.usage.calls).toBe(1);
    expect(await listModels(builtin)).toEqual([BUILTIN_MODEL_ID]);
  });

  it('asks for JSON with the schema as a response constraint and repairs once', async () => {
    let calls = 0;
    const seen = installFakePromptApi(() => (++calls === 1 ? 'not json' : '{"answer":"42"}'));
    const client = createLlmClient(builtin);
    const value = await client.json({
      stage: 'answer',
      schemaName: 'answer',
      schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
      messages: [{ role: 'user', content: 'q' }],
      parse: (v) => {
        const a = (v as { answer?: unknown }).answer;
        if (typeof a !== 'string') throw new Error('answer missing');
        return a;
      },
    });
    expect(value).toBe('42');
    expect(seen).toHaveLength(2);
    expect(seen[0]!.constraint).toMatchObject({ type: 'object' });
  });

  it('reports a browser without the API as not configured, and a cancel as cancelled', async () => {
    const client = createLlmClient(builtin);
    await expect(client.chat({ stage: 'answer', messages: [{ role: 'user', content: 'q' }] })).rejects.toMatchObject({ info: { code: 'not-configured' } });
    installFakePromptApi(() => 'a long answer that keeps going');
    const ctrl = new AbortController();
    const p = client.chat({ stage: 'answer', messages: [{ role: 'user', content: 'q' }], signal: ctrl.signal, onDelta: () => ctrl.abort() });
    await expect(p).rejects.toBeInstanceOf(LlmError);
    await expect(p).rejects.toMatchObject({ info: { code: 'cancelled' } });
  });
});
