import { storage } from 'wxt/utils/storage';
import { persistCapabilities, type Capabilities } from '../llm/capabilities';

/** What the LLM client learnt about each endpoint and model (reasoning parameters, json_schema,
 * how thinking arrives, streaming), kept across worker restarts: an MV3 worker stops after 30 s
 * idle, and without this every new worker would spend a failed request learning it again. */
const capabilitiesItem = storage.defineItem<Record<string, Capabilities>>('local:llmCapabilities', { fallback: {} });

export async function keepLearntCapabilities(): Promise<void> {
  persistCapabilities(await capabilitiesItem.getValue(), (all) => {
    capabilitiesItem.setValue(all).catch((e: unknown) => console.warn('Ratify: could not store model capabilities', e));
  });
}
