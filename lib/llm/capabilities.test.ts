import { describe, expect, it } from 'vitest';
import { learnFromError, reasoningById } from './capabilities';

describe('model capabilities', () => {
  it('knows OpenAI reasoning models by id, and leaves routers and other ids alone', () => {
    expect(['o1', 'o3-mini', 'o4-mini-2025-04-16', 'gpt-5', 'gpt-5-mini', 'gpt-5.1'].map(reasoningById)).toEqual([true, true, true, true, true, true]);
    expect(reasoningById('gpt-5-chat-latest')).toBe(false);
    expect(['gpt-4o-mini', 'qwen3:8b', 'gpt-oss:20b', 'openai/o3', 'llama3.1'].map(reasoningById)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('learns from the server’s own words, and only from errors about what was sent', () => {
    const sent = { max_tokens: 400, temperature: 0, response_format: {}, reasoning_effort: 'low' };
    expect(learnFromError("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', sent)).toEqual({ reasoning: true });
    expect(learnFromError("Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.", 'temperature', sent)).toEqual({ reasoning: true });
    expect(learnFromError("Unsupported parameter: 'reasoning_effort' is not supported with this model.", 'reasoning_effort', sent)).toEqual({ refused: ['reasoning_effort'] });
    expect(learnFromError("response_format type 'json_schema' is not supported by this server.", 'response_format', sent)).toEqual({ jsonSchema: false });
    expect(learnFromError("Invalid schema for response_format 'draft': In context=(), 'additionalProperties' is required to be supplied and to be false.", undefined, sent)).toEqual({ jsonSchema: false });
    // Not about parameters or structured output: nothing to learn, the error stands.
    expect(learnFromError("Invalid 'messages[0].content': string too long.", 'messages[0].content', sent)).toBeUndefined();
    expect(learnFromError("This model's maximum context length is 8192 tokens.", 'messages', sent)).toBeUndefined();
  });
});
