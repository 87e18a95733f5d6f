/** How the fake server treats a browser's Origin, the way real local servers do. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerString } from './http-util.ts';
import { isExtensionOrigin } from './fake-llm-request.ts';

export type OriginRule =
  /** Permissive CORS: a server set up to allow the extension. */
  | 'allow'
  /** Ollama without OLLAMA_ORIGINS: a bare 403 "Forbidden" to extension origins. */
  | 'refuse-extensions'
  /** LM Studio with its CORS setting off: it answers, but with no CORS headers, so a browser
   * context without access to the host cannot read the reply (an extension that may read the
   * site can). */
  | 'no-cors';

/** Sets the CORS headers the rule gives. 'preflight': an OPTIONS request, answered here;
 * 'refuse': answer 403 once the request is logged. */
export function applyOriginRule(req: IncomingMessage, res: ServerResponse, rule: OriginRule): 'preflight' | 'refuse' | undefined {
  const origin = headerString(req, 'origin');
  const refuse = rule === 'refuse-extensions' && isExtensionOrigin(origin);
  const cors = rule === 'allow' || (rule === 'refuse-extensions' && !refuse);
  if (cors) {
    res.setHeader('access-control-allow-origin', origin ?? '*');
    res.setHeader('vary', 'Origin');
    res.setHeader('access-control-expose-headers', 'retry-after, x-request-id, x-ratelimit-remaining-requests');
  }
  if (req.method !== 'OPTIONS') return refuse ? 'refuse' : undefined;
  if (refuse) {
    res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Forbidden');
  } else {
    res.writeHead(204, cors ? { 'access-control-allow-methods': 'GET, POST, OPTIONS', 'access-control-allow-headers': headerString(req, 'access-control-request-headers') ?? 'authorization, content-type', 'access-control-max-age': '600' } : {});
    res.end();
  }
  return 'preflight';
}
