import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { capabilityKey, memoryCapabilityStore } from '../llm/capabilities';
import { keepLearntCapabilities } from './capability-storage';

describe('learnt model capabilities', () => {
  beforeEach(() => fakeBrowser.reset());

  it('survive a worker restart: what the last worker learnt is known at start, and new lessons are stored', async () => {
    const earlier = capabilityKey('https://api.example/v1', 'o9-preview');
    await fakeBrowser.storage.local.set({ llmCapabilities: { [earlier]: { reasoning: true } } });
    await keepLearntCapabilities();
    expect(memoryCapabilityStore.get(earlier)).toEqual({ reasoning: true });

    const now = capabilityKey('http://localhost:11434/v1', 'qwen3:8b');
    memoryCapabilityStore.set(now, { thinking: 'think-tag', jsonSchema: false });
    await expect.poll(async () => (await fakeBrowser.storage.local.get('llmCapabilities')).llmCapabilities).toMatchObject({
      [earlier]: { reasoning: true },
      [now]: { thinking: 'think-tag', jsonSchema: false },
    });
  });
});
