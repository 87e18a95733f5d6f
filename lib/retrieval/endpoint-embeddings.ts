/** Embeddings at the configured endpoint, by default: the model set in the settings, or one found
 * in the endpoint's model list (lib/retrieval/embedding-model.ts). What was found is remembered
 * per endpoint for a while, so runs do not list models again and again. */
import { createLlmClient, listModels } from '../llm/client';
import type { LlmClient } from '../llm/types';
import type { LlmSettings } from '../settings/schema';
import type { EmbedFn } from './dense';
import { chooseEmbeddingModel, type EmbeddingChoice } from './embedding-model';

const TTL_MS = 10 * 60_000;
const found = new Map<string, { at: number; choice: Promise<EmbeddingChoice> }>();

/** Which embeddings model these settings use (listing the endpoint's models when none is set). */
export function detectEmbeddingModel(llm: LlmSettings, now = Date.now()): Promise<EmbeddingChoice> {
  if (llm.preset === 'builtin') return Promise.resolve({ how: 'none-found' });
  const key = `${llm.baseURL}\n${llm.embeddingModel}\n${llm.apiKey.length}`;
  const hit = found.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.choice;
  const direct = chooseEmbeddingModel(llm.embeddingModel, llm.baseURL, []);
  const choice =
    direct.how === 'none-found'
      ? listModels(llm).then(
          (ids) => chooseEmbeddingModel(llm.embeddingModel, llm.baseURL, ids),
          // An endpoint that cannot list its models offers none we can find: lexical ranking.
          (): EmbeddingChoice => ({ how: 'none-found' }),
        )
      : Promise.resolve(direct);
  found.set(key, { at: now, choice });
  return choice;
}

/** The library's embeddings options for these settings: the model (found lazily) and an embed
 * function that uses it. */
export function endpointEmbeddings(llm: LlmSettings): { embed: EmbedFn; embeddingModel: () => Promise<string | undefined> } {
  let client: { model: string; llm: LlmClient } | undefined;
  const model = async () => (await detectEmbeddingModel(llm)).model;
  return {
    embeddingModel: model,
    async embed(texts, signal) {
      const m = await model();
      if (!m) throw new Error('no embeddings model at the endpoint');
      if (client?.model !== m) client = { model: m, llm: createLlmClient({ ...llm, embeddingModel: m }) };
      return client.llm.embed(texts, signal);
    },
  };
}
