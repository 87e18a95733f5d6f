/** Ask and verify runs through the built-in model client and executeRun, against a fake of
 * Chrome's Prompt API (test/harness/fake-language-model.ts) that answers like the scripted
 * pipeline model: download with progress, a small context window, declared languages, partial
 * JSON streaming and the shared repair round. */
import { afterEach, describe, expect, it } from 'vitest';
import { installFakeLanguageModel, type FakeLanguageModel, type PromptSeen } from '../../test/harness/fake-language-model.ts';
import { dataBlocks, pipelineResponder, type PipelineScenario } from '../../test/harness/pipeline-responder.ts';
import type { LlmRequest } from '../../test/harness/fake-llm.ts';
import { CURIE_DOCS, curieLibrary, runOnce, type TestWorld } from '../../test/harness/pipeline-world.ts';
import { downloadModel } from '../../components/setup/use-builtin';
import { withDefaults } from '../settings/schema';
import { portPair } from '../../test/harness/memory-port.ts';
import { BUILTIN_MODEL_ID, builtinStatus } from './builtin';
import { nativeLanguageModel, setRemoteLanguageModel } from './builtin-availability';
import { remoteLanguageModel, serveLanguageModel } from './builtin-remote';
import { createLlmClient } from './client';

const SCENARIO: PipelineScenario = {
  steps: ['Marie Curie was born in 1867.'],
  facts: [{ step: 0, phrase: 'born 7 November 1867' }],
  finalAnswer: 'Born in 1867.',
  claims: [{ claim: 'Marie Curie was born in 1867.', phrase: 'born 7 November 1867', verdict: 'supported' }],
};

/** The stage a response constraint belongs to, read from its fields as a model would. */
function stageOf(constraint: Record<string, unknown> | undefined): string {
  const keys = Object.keys((constraint?.properties as object | undefined) ?? {});
  for (const [k, stage] of [['claims', 'claims'], ['label', 'gate'], ['search', 'searches'], ['steps', 'draft'], ['verdict', 'check'], ['revised', 'revise'], ['answer', 'answer']] as const) if (keys.includes(k)) return stage;
  return '';
}

/** The scripted pipeline model, answering Prompt API prompts. */
function scripted(sc: PipelineScenario = SCENARIO, malformedOnce?: string): (p: PromptSeen) => string {
  const respond = pipelineResponder(sc);
  let broken = false;
  return (p) => {
    const stage = stageOf(p.constraint);
    if (stage === malformedOnce && !broken) {
      broken = true;
      return '{"steps": [';
    }
    const messages = [...p.initialPrompts, { role: 'user', content: p.prompt }];
    const req = { stage, messages, system: p.initialPrompts.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n'), lastUser: p.prompt, stream: true, model: BUILTIN_MODEL_ID, responseFormat: 'json_schema', body: {}, headers: {}, signal: new AbortController().signal } satisfies LlmRequest;
    const reply = respond(req) as { json?: unknown; content?: string };
    return reply.json !== undefined ? JSON.stringify(reply.json) : (reply.content ?? '');
  };
}

let fake: FakeLanguageModel | undefined;
afterEach(() => fake?.uninstall());

function world(): TestWorld {
  const llm = createLlmClient(withDefaults({ llm: { preset: 'builtin', model: BUILTIN_MODEL_ID } }).llm);
  // No HTTP server: the built-in model is in the browser. `chatRequests` counts its prompts.
  const server = { chatRequests: () => fake!.prompts.map((p) => ({ stage: stageOf(p.constraint) })) } as unknown as TestWorld['server'];
  return { server, llm, close: () => Promise.resolve() };
}

const row = (name: string, r: Awaited<ReturnType<typeof runOnce>>) =>
  console.log(`| built-in: ${name} | ${r.run.status === 'done' ? `done: ${JSON.stringify(r.run.answer)}` : `${r.run.status}: ${r.run.error?.code} — ${r.run.error?.message}`} | ${fake!.prompts.length} | ${(r.ms / 1000).toFixed(1)} s |`);

describe('Chrome’s built-in model', () => {
  it('"downloadable": the run says to download it; the download reports progress; then ask and verify work', async () => {
    fake = installFakeLanguageModel({ availability: 'downloadable', answer: scripted() });
    expect(await builtinStatus()).toBe('downloadable');
    const before = await runOnce(world(), { text: 'When was Marie Curie born?' }, curieLibrary());
    row('downloadable, before download', before);
    expect([before.run.status, before.run.error?.code]).toEqual(['error', 'not-configured']);
    expect(before.run.error?.message).toMatch(/not downloaded yet.*Download Chrome's built-in model/);
    expect(fake.prompts).toHaveLength(0);

    fake.userGesture();
    const progress: number[] = [];
    const lm = globalThis as unknown as { LanguageModel: { create: Parameters<typeof downloadModel>[0] } };
    await downloadModel(lm.LanguageModel.create.bind(lm.LanguageModel), (p) => progress.push(p));
    expect(progress).toEqual([0, 30, 75, 100]);
    expect(await builtinStatus()).toBe('available');

    for (const mode of ['ask', 'verify'] as const) {
      fake.prompts.length = 0;
      const r = await runOnce(world(), mode === 'ask' ? { text: 'When was Marie Curie born?' } : { text: 'Marie Curie was born in 1867.' }, curieLibrary(), { mode });
      row(`after download (${mode})`, r);
      expect([r.run.status, r.run.error?.message]).toEqual(['done', undefined]);
      expect(r.run.answer).toMatch(/1867.*\[1\]/);
      expect(r.run.sources[0]?.url).toContain('Marie_Curie');
      expect(fake.prompts.map((p) => stageOf(p.constraint))).toEqual(mode === 'ask' ? ['gate', 'draft', 'revise'] : ['searches', 'claims', 'check']);
      // Languages declared: English in, English out.
      expect(fake.prompts[0]?.languages).toEqual({ inputs: ['en'], outputs: ['en'] });
    }
  });

  it('prompts are fitted to a small context window: fewer, shorter passages, and the run still answers', async () => {
    const long = CURIE_DOCS.map((d) => ({ ...d, url: `${d.url}#long`, text: `${d.text} ${'More background about the Curie family and their work in Paris. '.repeat(30)}` }));
    fake = installFakeLanguageModel({ contextWindow: 1500, answer: scripted() });
    const r = await runOnce(world(), { text: 'When was Marie Curie born?' }, curieLibrary(long));
    row('context window 1,500 tokens', r);
    expect([r.run.status, r.run.error?.message]).toEqual(['done', undefined]);
    expect(r.run.answer).toMatch(/1867/);
    const revise = fake.prompts.find((p) => stageOf(p.constraint) === 'revise')!;
    const given = r.run.steps[0]!.queries.flatMap((q) => q.passages).length;
    expect(dataBlocks(revise.prompt).filter((b) => b.attrs.id).length).toBeLessThan(given);
    expect(Math.ceil((revise.prompt.length + revise.initialPrompts.map((m) => m.content).join('\n').length) / 4)).toBeLessThanOrEqual(1500);
  });

  it('a context window too small for even one passage: a message that says what to change', async () => {
    fake = installFakeLanguageModel({ contextWindow: 200, answer: scripted() });
    const r = await runOnce(world(), { text: 'When was Marie Curie born?' }, curieLibrary());
    row('context window 200 tokens', r);
    expect([r.run.status, r.run.error?.code]).toEqual(['error', 'context-length']);
    expect(r.run.error?.message).toMatch(/fewer tabs|larger context window/);
  });

  it('a language the model does not handle: a clear message, no prompt sent', async () => {
    fake = installFakeLanguageModel({ answer: scripted() });
    const r = await runOnce(world(), { text: '居里夫人是哪一年出生的？' }, curieLibrary());
    row('Chinese question', r);
    expect([r.run.status, r.run.error?.code]).toEqual(['error', 'unsupported-language']);
    expect(r.run.error?.message).toMatch(/does not handle Chinese \(zh\)/);
    expect(fake.prompts).toHaveLength(0);
    // Japanese is one it handles, and is declared as such.
    fake.uninstall();
    fake = installFakeLanguageModel({ answer: scripted() });
    await runOnce(world(), { text: 'マリー・キュリーはいつ生まれましたか？' }, curieLibrary());
    expect(fake.prompts[0]?.languages).toEqual({ inputs: ['en', 'ja'], outputs: ['ja'] });
  });

  it('partial JSON streams as with any model, and the repair round is the main client’s', async () => {
    fake = installFakeLanguageModel({ answer: scripted(SCENARIO, 'draft') });
    const r = await runOnce(world(), { text: 'When was Marie Curie born?' }, curieLibrary());
    row('broken draft JSON once', r);
    expect([r.run.status, r.run.error?.message]).toEqual(['done', undefined]);
    expect(r.events.filter((e) => e.type === 'answer-delta').length).toBeGreaterThan(1);
    expect(fake.prompts).toHaveLength(4); // gate, draft, its repair, revise
    expect(fake.prompts[2]?.prompt).toMatch(/That reply could not be used .*corrected JSON object for draft/);
  });

  it('in a context without the Prompt API (Chrome’s worker), ask runs through the offscreen document’s model over a port', async () => {
    fake = installFakeLanguageModel({ answer: scripted() });
    const offscreen = nativeLanguageModel()!;
    fake.uninstall(); // the worker's own globalThis has no LanguageModel
    expect(await builtinStatus()).toBe('unavailable');
    let connects = 0;
    setRemoteLanguageModel(
      remoteLanguageModel(() => {
        connects++;
        const [worker, document] = portPair();
        serveLanguageModel(offscreen, document);
        return Promise.resolve(worker);
      }),
    );
    try {
      expect(await builtinStatus()).toBe('available');
      const r = await runOnce(world(), { text: 'When was Marie Curie born?' }, curieLibrary());
      row('through the offscreen port (ask)', r);
      expect([r.run.status, r.run.error?.message]).toEqual(['done', undefined]);
      expect(r.run.answer).toMatch(/1867.*\[1\]/);
      expect(r.events.filter((e) => e.type === 'answer-delta').length).toBeGreaterThan(1);
      expect(fake.prompts).toHaveLength(3);
      expect(connects).toBe(1);
    } finally {
      setRemoteLanguageModel(undefined);
    }
  });
});
