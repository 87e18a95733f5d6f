/** What a user is told for each way a model call can fail (the SDK's errors, fetch's, ours). */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { classifyLlmError, LlmError } from './errors';
import { NotAnApiError } from './transport';
import { RedirectRefused } from '../net/api-fetch';

const BASE = 'https://api.example.com/v1';
const http = (status: number | undefined, body: object | undefined, message = 'refused', headers?: Record<string, string>) =>
  new OpenAI.APIError(status, body, message, headers ? new Headers(headers) : undefined);
const classify = (err: unknown, base = BASE, preset?: string) => classifyLlmError(err, base, 'draft', preset);

describe('classifyLlmError: HTTP answers', () => {
  it.each([
    [401, 'auth', /rejected the API key \(401\)\. bad key/],
    [403, 'forbidden', /refused the request \(403\)\. bad key/],
    [404, 'model-not-found', /check the base URL and the model name\. bad key/],
    [408, 'timeout', /timed out \(408\)/],
    [502, 'server', /failed \(502\)\. bad key/],
    [418, 'unknown', /refused the request \(418\)\. bad key/],
  ])('%s is %s, with the server’s words', (status, code, message) => {
    const e = classify(http(status, { message: 'bad key' }));
    expect(e).toMatchObject({ code, status, stage: 'draft' });
    expect(e.message).toMatch(message);
  });

  it('429 says when to try again (seconds, or an HTTP date)', () => {
    expect(classify(http(429, undefined, 'slow down', { 'retry-after': '7' }))).toMatchObject({ code: 'rate-limit', retryAfter: 7 });
    const at = new Date(Date.now() + 60_000).toUTCString();
    const e = classify(http(429, undefined, 'slow down', { 'retry-after': at }));
    expect(e.retryAfter).toBeGreaterThan(50);
    expect(e.retryAfter).toBeLessThanOrEqual(60);
  });

  it('a 403 from Ollama is its origin check', () => {
    expect(classify(http(403, undefined), 'http://localhost:11434/v1').code).toBe('ollama-origin');
    expect(classify(http(403, undefined), 'http://gpu-box:8080/v1', 'ollama').code).toBe('ollama-origin');
  });

  it('a prompt over the context window, however the server words it', () => {
    expect(classify(http(413, undefined, 'too large'))).toMatchObject({ code: 'context-length', status: 413 });
    expect(classify(http(400, { code: 'context_length_exceeded', message: 'no' })).code).toBe('context-length');
    expect(classify(http(500, { type: 'exceed_context_size_error', message: 'no' })).code).toBe('context-length');
    expect(classify(http(422, { message: "This model's maximum context length is 4096 tokens" })).code).toBe('context-length');
    // The same words with a status that is not about the request are not taken for it.
    expect(classify(http(404, { message: 'maximum context length' })).code).toBe('model-not-found');
  });

  it('a proxy’s error page is named by its title, never shown as markup', () => {
    const e = classify(http(418, '<html><title>Blocked by proxy</title><body>…</body></html>' as unknown as object));
    expect(e.message).toContain('The server answered with a web page ("Blocked by proxy")');
    expect(e.message).not.toContain('<html>');
  });
});

describe('classifyLlmError: no HTTP answer', () => {
  it('cancel, time-out and a refused redirect', () => {
    expect(classify(new OpenAI.APIUserAbortError()).code).toBe('cancelled');
    expect(classify(new DOMException('stop', 'AbortError')).code).toBe('cancelled');
    expect(classify(new OpenAI.APIConnectionTimeoutError()).message).toBe('The model server at api.example.com did not answer in time.');
    const redirected = classify(new OpenAI.APIConnectionError({ cause: new RedirectRefused(BASE, 'https://elsewhere.example/', 302) }));
    expect(redirected).toMatchObject({ code: 'redirected', status: 302 });
  });

  it('a web page instead of an API, a connection cut mid-answer, and a server never reached', () => {
    expect(classify(new OpenAI.APIConnectionError({ cause: new NotAnApiError('text/html') })).code).toBe('not-an-api');
    const reset = Object.assign(new Error('socket'), { code: 'ECONNRESET' });
    expect(classify(new OpenAI.APIConnectionError({ cause: new TypeError('terminated', { cause: reset }) })).message).toMatch(/cut off mid-answer/);
    expect(classify(new OpenAI.APIConnectionError({ cause: new TypeError('Failed to fetch') }))).toMatchObject({ code: 'unreachable', message: 'Could not reach the model server at api.example.com.' });
  });

  it('our own errors and run errors pass through; anything else is unknown, in plain words', () => {
    expect(classify(new LlmError({ code: 'bad-output', message: 'unreadable', stage: 'gate' }))).toEqual({ code: 'bad-output', message: 'unreadable', stage: 'gate' });
    expect(classify({ code: 'auth', message: 'no key' })).toEqual({ code: 'auth', message: 'no key' });
    expect(classify({ code: 'not-a-code', message: 'x' }).code).toBe('unknown');
    expect(classify(new Error('x'.repeat(500))).message).toHaveLength(401);
  });
});
