/** "Could not reach the model server" has three causes that a browser reports as one network
 * error while Ratify may not read sites: nothing answers at the address (the server is not
 * running, a wrong port), or the server answers but will not let an extension read its reply
 * (Ollama refusing the extension's origin until OLLAMA_ORIGINS takes effect; LM Studio with its
 * CORS setting off). A `no-cors` GET to the server's address tells them apart: it resolves, with
 * a reply nobody may read, whenever something answers. It carries no key, no cookie and no prompt. */
import type { RunError } from '../core/run';
import type { LlmSettings } from '../settings/schema';
import { looksLikeOllama, NOT_REACHED } from './errors';

const PROBE_MS = 3000;

export async function explainUnreachable(info: RunError, settings: Pick<LlmSettings, 'baseURL' | 'preset'>, fetchImpl: typeof fetch = fetch): Promise<RunError> {
  if (info.code !== 'unreachable' || !info.message.startsWith(NOT_REACHED)) return info;
  let origin: string;
  try {
    origin = new URL(settings.baseURL).origin;
  } catch {
    return info;
  }
  const host = new URL(origin).host;
  const ollama = settings.preset === 'ollama' || looksLikeOllama(settings.baseURL);
  const answers = await fetchImpl(`${origin}/`, { mode: 'no-cors', credentials: 'omit', cache: 'no-store', signal: AbortSignal.timeout(PROBE_MS) }).then(
    () => true,
    // Refused, reset or timed out: nothing is answering there.
    () => false,
  );
  const stage = info.stage !== undefined ? { stage: info.stage } : {};
  if (answers && ollama) {
    return { code: 'ollama-origin', message: `Ollama answers at ${host} but refuses requests from this extension: it only accepts origins listed in OLLAMA_ORIGINS.`, ...stage };
  }
  if (answers) return { code: 'no-cors', message: `The server at ${host} answers, but its replies do not allow browser extensions to read them (no CORS headers).`, ...stage };
  if (ollama) return { code: 'ollama-down', message: `Nothing answers at ${host}: Ollama is not running there.`, ...stage };
  return info;
}
