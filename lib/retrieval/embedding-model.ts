/** Which embeddings model to use at the configured endpoint, when the user named none: OpenAI's
 * text-embedding-3-small; on servers that list their models (Ollama's and LM Studio's /v1/models
 * list embedding models beside chat models, e.g. "nomic-embed-text:latest",
 * "text-embedding-nomic-embed-text-v1.5"), the first listed model whose name says it embeds. */
import type { LlmSettings } from '../settings/schema';

/** The settings value that turns dense ranking off. */
export const EMBEDDINGS_OFF = 'none';

/** Names of embedding model families as servers list them (Ollama library, LM Studio, Hugging
 * Face ids), best first. */
const KNOWN = [
  /text-embedding-3-small/i,
  /text-embedding-3-large/i,
  /nomic-embed/i,
  /bge-m3/i,
  /mxbai-embed/i,
  /snowflake-arctic-embed/i,
  /multilingual-e5|(?:^|[/-])e5-/i,
  /bge-/i,
  /gte-/i,
  /all-minilm/i,
  /jina-embeddings/i,
  /granite-embedding/i,
  /embed/i,
];

/** OpenAI's own endpoint: the small embeddings model is always there. */
function isOpenAi(baseURL: string): boolean {
  try {
    return new URL(baseURL).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

export interface EmbeddingChoice {
  /** The model used, or undefined when none was found (or dense ranking is off). */
  model?: string;
  /** How it was chosen. */
  how: 'set' | 'off' | 'openai' | 'listed' | 'none-found';
}

/** The embeddings model for these settings, given the models the endpoint lists (when known). */
export function chooseEmbeddingModel(setting: string, baseURL: string, listed: readonly string[]): EmbeddingChoice {
  const s = setting.trim();
  if (s.toLowerCase() === EMBEDDINGS_OFF) return { how: 'off' };
  if (s) return { model: s, how: 'set' };
  if (isOpenAi(baseURL)) return { model: 'text-embedding-3-small', how: 'openai' };
  for (const re of KNOWN) {
    const m = listed.find((id) => re.test(id));
    if (m) return { model: m, how: 'listed' };
  }
  return { how: 'none-found' };
}

const TTL_MS = 10 * 60_000;
const found = new Map<string, { at: number; choice: Promise<EmbeddingChoice> }>();

/** Which embeddings model these settings use, listing the endpoint's models with `list` when none is
 * set. What was found is remembered per endpoint for a while, so runs do not list models again and
 * again. The worker lists with the client (./endpoint-embeddings.ts); the options page asks the
 * worker, so it loads no client. */
export function detectEmbeddingModel(llm: LlmSettings, list: (llm: LlmSettings) => Promise<string[]>, now = Date.now()): Promise<EmbeddingChoice> {
  if (llm.preset === 'builtin') return Promise.resolve({ how: 'none-found' });
  const key = `${llm.baseURL}\n${llm.embeddingModel}\n${llm.apiKey.length}`;
  const hit = found.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.choice;
  const direct = chooseEmbeddingModel(llm.embeddingModel, llm.baseURL, []);
  const choice =
    direct.how === 'none-found'
      ? list(llm).then(
          (ids) => chooseEmbeddingModel(llm.embeddingModel, llm.baseURL, ids),
          // An endpoint that cannot list its models offers none we can find: lexical ranking.
          (): EmbeddingChoice => ({ how: 'none-found' }),
        )
      : Promise.resolve(direct);
  found.set(key, { at: now, choice });
  return choice;
}
