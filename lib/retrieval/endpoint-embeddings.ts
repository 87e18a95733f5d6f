/** Embeddings at the configured endpoint, by default: the model set in the settings, or one found
 * in the endpoint's model list (lib/retrieval/embedding-model.ts), listed with the client. */
import { createLlmClient, listModels } from '../llm/client';
import type { LlmClient } from '../llm/types';
import type { LlmSettings } from '../settings/schema';
import type { EmbedFn } from './dense';
import { detectEmbeddingModel } from './embedding-model';

/** The library's embeddings options for these settings: the model (found lazily) and an embed
 * function that uses it. */
export function endpointEmbeddings(llm: LlmSettings): { embed: EmbedFn; embeddingModel: () => Promise<string | undefined> } {
  let client: { model: string; llm: LlmClient } | undefined;
  const model = async () => (await detectEmbeddingModel(llm, listModels)).model;
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
