import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, isLlmConfigured, validateSettings, withDefaults } from './schema';

describe('settings', () => {
  it('fills what stored settings lack with defaults, keeping what they have', () => {
    const s = withDefaults({ llm: { baseURL: 'http://localhost:11434/v1', model: 'llama3' }, pipeline: { maxSteps: 3 } });
    expect(s.llm.baseURL).toBe('http://localhost:11434/v1');
    expect(s.llm.timeoutMs).toBe(DEFAULT_SETTINGS.llm.timeoutMs);
    expect(s.pipeline.maxSteps).toBe(3);
    expect(s.pipeline.betaThreshold).toBe(0.5);
    expect(s.privacy.excludedDomains).toContain('mail.google.com');
  });

  it('is configured only with a base URL and a model', () => {
    expect(isLlmConfigured(DEFAULT_SETTINGS)).toBe(false);
    expect(isLlmConfigured(withDefaults({ llm: { baseURL: 'https://api.openai.com/v1' } }))).toBe(false);
    expect(isLlmConfigured(withDefaults({ llm: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini' } }))).toBe(true);
  });

  it('explains invalid values field by field', () => {
    const problems = validateSettings(
      withDefaults({ llm: { baseURL: 'ftp://x', model: '' }, pipeline: { betaThreshold: 1.5, maxSteps: 0 }, search: { brave: { enabled: true, apiKey: '' } } }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        { field: 'llm.baseURL', message: 'url-scheme' },
        { field: 'llm.model', message: 'required' },
        { field: 'pipeline.betaThreshold', message: 'range-0-1' },
        { field: 'pipeline.maxSteps', message: 'range-1-12' },
        { field: 'search.brave.apiKey', message: 'required' },
      ]),
    );
    expect(validateSettings(withDefaults({ llm: { baseURL: 'http://127.0.0.1:1234/v1', model: 'm' } }))).toEqual([]);
  });
});
