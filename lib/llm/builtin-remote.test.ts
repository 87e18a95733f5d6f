/** The built-in model used through a port (the worker's route to the offscreen document), against
 * the fake Prompt API and an in-memory port pair that delivers like a runtime Port. */
import { afterEach, describe, expect, it } from 'vitest';
import { installFakeLanguageModel, type FakeLanguageModel } from '../../test/harness/fake-language-model.ts';
import { portPair } from '../../test/harness/memory-port.ts';
import type { LanguageModelSession, LanguageModelStatic } from './builtin-availability';
import { remoteLanguageModel, serveLanguageModel, type PortLike } from './builtin-remote';

let fake: FakeLanguageModel | undefined;
afterEach(() => fake?.uninstall());

/** The fake's LanguageModel, with what the serving side did to its sessions on record. */
function recorded(): { lm: LanguageModelStatic; signals: AbortSignal[]; destroyed: number[] } {
  const real = (globalThis as unknown as { LanguageModel: LanguageModelStatic }).LanguageModel;
  const signals: AbortSignal[] = [];
  const destroyed: number[] = [];
  let n = 0;
  const lm: LanguageModelStatic = {
    availability: (o) => real.availability(o),
    async create(o) {
      const s = await real.create(o);
      const k = n++;
      return Object.assign(Object.create(s) as LanguageModelSession, {
        promptStreaming(input: string, opts: { signal?: AbortSignal } = {}) {
          if (opts.signal) signals.push(opts.signal);
          return s.promptStreaming(input, opts);
        },
        destroy() {
          destroyed.push(k);
          s.destroy();
        },
      });
    },
  };
  return { lm, signals, destroyed };
}

/** A remote LanguageModel served with `lm`; `servers` are the serving ends, one per connection. */
function remoteOver(lm: LanguageModelStatic | undefined): { remote: LanguageModelStatic; servers: PortLike[] } {
  const servers: PortLike[] = [];
  const remote = remoteLanguageModel(() => {
    const [client, server] = portPair();
    servers.push(server);
    serveLanguageModel(lm, server);
    return Promise.resolve(client);
  });
  return { remote, servers };
}

async function readAll(stream: ReadableStream<string>): Promise<string[]> {
  const out: string[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

const ANSWER = 'Marie Curie was born on 7 November 1867 in Warsaw.';
const en = { expectedInputs: [{ type: 'text' as const, languages: ['en'] }], expectedOutputs: [{ type: 'text' as const, languages: ['en'] }] };

describe('the built-in model over a port', () => {
  it('availability is the other side’s, per language; no Prompt API there is "unavailable"', async () => {
    fake = installFakeLanguageModel({ availability: 'downloadable', answer: () => ANSWER });
    const { remote } = remoteOver(recorded().lm);
    expect(await remote.availability()).toBe('downloadable');
    expect(await remote.availability({ expectedInputs: [{ type: 'text', languages: ['zh'] }] })).toBe('unavailable');
    expect(await remoteOver(undefined).remote.availability()).toBe('unavailable');
    await expect(remoteOver(undefined).remote.create()).rejects.toMatchObject({ name: 'NotSupportedError' });
  });

  it('create forwards the download progress, and the session reports its window and usage', async () => {
    fake = installFakeLanguageModel({ availability: 'downloadable', contextWindow: 3000, answer: () => ANSWER });
    const { remote } = remoteOver(recorded().lm);
    // Without the click Chrome requires, the refusal arrives with its own name.
    await expect(remote.create({ ...en })).rejects.toMatchObject({ name: 'NotAllowedError' });
    fake.userGesture();
    const progress: number[] = [];
    const s = await remote.create({ ...en, initialPrompts: [{ role: 'system', content: 'x'.repeat(400) }], monitor: (m) => m.addEventListener('downloadprogress', (e) => progress.push(e.loaded)) });
    expect(progress).toEqual([0, 0.3, 0.75, 1]);
    expect(fake.downloads).toEqual([[0, 0.3, 0.75, 1]]);
    expect([s.contextWindow, s.contextUsage]).toEqual([3000, 100]);
    expect(await s.measureContextUsage!('y'.repeat(80))).toBe(20);
    expect(await remote.availability()).toBe('available');
  });

  it('streamed chunks arrive complete and in order, with the response constraint passed on', async () => {
    fake = installFakeLanguageModel({ answer: () => ANSWER });
    const { remote } = remoteOver(recorded().lm);
    const s = await remote.create({ ...en, initialPrompts: [{ role: 'system', content: 'Answer briefly.' }] });
    const constraint = { type: 'object', properties: { answer: { type: 'string' } } };
    const chunks = await readAll(s.promptStreaming('When was Marie Curie born?', { responseConstraint: constraint }));
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join('')).toBe(ANSWER);
    expect(fake.prompts[0]).toMatchObject({ prompt: 'When was Marie Curie born?', constraint, initialPrompts: [{ role: 'system', content: 'Answer briefly.' }] });
  });

  it('a prompt over the window fails as QuotaExceededError, as the client expects', async () => {
    fake = installFakeLanguageModel({ contextWindow: 100, answer: () => ANSWER });
    const { remote } = remoteOver(recorded().lm);
    const s = await remote.create({ ...en });
    await expect(readAll(s.promptStreaming('z'.repeat(1000)))).rejects.toMatchObject({ name: 'QuotaExceededError' });
    await expect(remote.create({ ...en, initialPrompts: [{ role: 'system', content: 'z'.repeat(1000) }] })).rejects.toMatchObject({ name: 'QuotaExceededError' });
  });

  it('aborting stops the prompt at the other end too', async () => {
    fake = installFakeLanguageModel({ answer: () => ANSWER.repeat(50) });
    const rec = recorded();
    const { remote } = remoteOver(rec.lm);
    const s = await remote.create({ ...en });
    const ac = new AbortController();
    const reader = s.promptStreaming('Tell me everything.', { signal: ac.signal }).getReader();
    expect((await reader.read()).value).toBeTruthy();
    ac.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => rec.signals[0]?.aborted).toBe(true);
    // An already aborted signal sends nothing.
    await expect(s.measureContextUsage!('x', { signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('destroy ends the session at the other end; a later prompt on it is refused', async () => {
    fake = installFakeLanguageModel({ answer: () => ANSWER });
    const rec = recorded();
    const { remote } = remoteOver(rec.lm);
    const s = await remote.create({ ...en });
    s.destroy();
    await expect.poll(() => rec.destroyed).toEqual([0]);
    await expect(readAll(s.promptStreaming('Still there?'))).rejects.toMatchObject({ name: 'InvalidStateError' });
  });

  it('the other end going away fails the pending prompt clearly; the next call connects again', async () => {
    fake = installFakeLanguageModel({ answer: () => ANSWER.repeat(50) });
    const rec = recorded();
    const { remote, servers } = remoteOver(rec.lm);
    const s = await remote.create({ ...en });
    const reader = s.promptStreaming('Tell me everything.').getReader();
    await reader.read();
    servers[0]!.disconnect();
    await expect(reader.read()).rejects.toThrow(/built-in model stopped answering: the offscreen document that runs it closed/);
    expect(await remote.availability()).toBe('available');
    expect(servers).toHaveLength(2);
  });

  it('the caller going away ends its sessions and stops its prompts', async () => {
    fake = installFakeLanguageModel({ answer: () => ANSWER.repeat(50) });
    const rec = recorded();
    const [client, server] = portPair();
    serveLanguageModel(rec.lm, server);
    const remote = remoteLanguageModel(() => Promise.resolve(client));
    const s = await remote.create({ ...en });
    const reader = s.promptStreaming('Tell me everything.').getReader();
    await reader.read();
    client.disconnect();
    await expect.poll(() => [rec.signals[0]?.aborted, rec.destroyed]).toEqual([true, [0]]);
  });
});
