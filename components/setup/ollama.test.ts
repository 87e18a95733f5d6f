import { describe, expect, it } from 'vitest';
import { detectOs, ollamaCommand } from './ollama';

describe('the OLLAMA_ORIGINS command', () => {
  const origin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
  it('names this extension exactly, for each system', () => {
    expect(ollamaCommand('mac', origin).setup).toBe(`launchctl setenv OLLAMA_ORIGINS "${origin}"`);
    expect(ollamaCommand('windows', origin).setup).toBe(`setx OLLAMA_ORIGINS "${origin}"`);
    const linux = ollamaCommand('linux', `${origin}/`);
    expect(linux.setup).toContain(`Environment="OLLAMA_ORIGINS=${origin}"`);
    expect(linux.setup).toContain('sudo systemctl daemon-reload && sudo systemctl restart ollama');
    expect(linux.manual).toBe(`OLLAMA_ORIGINS="${origin}" ollama serve`);
  });
  it('knows the system from the platform string', () => {
    expect(detectOs('macOS')).toBe('mac');
    expect(detectOs('MacIntel')).toBe('mac');
    expect(detectOs('Win32')).toBe('windows');
    expect(detectOs('Linux x86_64')).toBe('linux');
  });
});
