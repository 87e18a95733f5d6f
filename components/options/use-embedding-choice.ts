/** Which embeddings model the settings use, found at the endpoint as a run would find it (the
 * worker lists the models, as for the model field), for the line under the embeddings field.
 * Looked up a moment after the address or name stops changing. */
import { useEffect, useState } from 'react';
import { request } from '@/lib/browser/messaging';
import { detectEmbeddingModel, type EmbeddingChoice } from '@/lib/retrieval/embedding-model';
import type { LlmSettings } from '@/lib/settings/schema';

export function useEmbeddingChoice(llm: LlmSettings): EmbeddingChoice | undefined {
  const [choice, setChoice] = useState<EmbeddingChoice>();
  useEffect(() => {
    setChoice(undefined);
    if (llm.preset !== 'builtin' && !/^https?:\/\//.test(llm.baseURL)) return;
    let live = true;
    const timer = setTimeout(() => {
      void detectEmbeddingModel(llm, (l) => request('llm/models', { llm: l })).then((c) => live && setChoice(c));
    }, 400);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // The lookup depends on these fields only.
  }, [llm.preset, llm.baseURL, llm.apiKey, llm.embeddingModel]);
  return choice;
}
