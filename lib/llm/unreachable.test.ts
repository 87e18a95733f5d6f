/** "Could not reach the model server" told apart by what answers at the address (a real server and
 * a closed port; in a browser without site access, the reply of a server that refuses extensions
 * is hidden exactly like no reply at all, which is why the probe exists: test/e2e/first-hour.spec.ts). */
import { createServer, type Server } from 'node:http';
import { createServer as createTcp } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { notReached } from './errors';
import { explainUnreachable } from './unreachable';

let server: Server | undefined;
afterEach(() => new Promise<void>((ok) => (server ? server.close(() => ok()) : ok())));

async function answering(): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(403, { 'content-type': 'text/plain' });
    res.end('Forbidden');
  });
  await new Promise<void>((ok) => server!.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
}

async function closed(): Promise<string> {
  const srv = createTcp();
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  const port = (srv.address() as { port: number }).port;
  await new Promise((ok) => srv.close(ok));
  return `http://127.0.0.1:${port}/v1`;
}

describe('explainUnreachable', () => {
  it('something answers: Ollama refusing the extension, or a server that does not answer extensions', async () => {
    const baseURL = await answering();
    expect(await explainUnreachable(notReached(baseURL, 'gate'), { baseURL, preset: 'ollama' })).toMatchObject({ code: 'ollama-origin', stage: 'gate' });
    expect(await explainUnreachable(notReached(baseURL), { baseURL, preset: 'custom' })).toMatchObject({ code: 'no-cors' });
  });

  it('nothing answers: Ollama is not running; any other server stays "could not reach"', async () => {
    const baseURL = await closed();
    expect(await explainUnreachable(notReached(baseURL), { baseURL, preset: 'ollama' })).toMatchObject({ code: 'ollama-down' });
    expect(await explainUnreachable(notReached(baseURL), { baseURL, preset: 'custom' })).toEqual(notReached(baseURL));
  });

  it('leaves other errors and a connection cut mid-answer as they are', async () => {
    const baseURL = await answering();
    const cut = { code: 'unreachable' as const, message: 'The connection to x was cut off mid-answer.' };
    expect(await explainUnreachable(cut, { baseURL, preset: 'ollama' })).toBe(cut);
    const auth = { code: 'auth' as const, message: 'no' };
    expect(await explainUnreachable(auth, { baseURL, preset: 'ollama' })).toBe(auth);
  });
});
