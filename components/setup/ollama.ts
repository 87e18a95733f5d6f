/** The exact command that lets Ollama answer this extension, for the user's system. Ollama only
 * accepts browser origins listed in OLLAMA_ORIGINS (it adds only localhost-like ones by itself);
 * the variable must be set where Ollama starts, and Ollama restarted. */
export type Os = 'mac' | 'windows' | 'linux';

export function detectOs(platform: string): Os {
  if (/mac|iphone|ipad/i.test(platform)) return 'mac';
  if (/win/i.test(platform)) return 'windows';
  return 'linux';
}

export function userOs(): Os {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
  return detectOs(nav.userAgentData?.platform || nav.platform || nav.userAgent);
}

export interface OllamaCommand {
  /** Sets the variable where Ollama normally starts (the app, the service). */
  setup: string;
  /** Starting it by hand instead. */
  manual: string;
}

export function ollamaCommand(os: Os, origin: string): OllamaCommand {
  const value = origin.replace(/\/$/, '');
  switch (os) {
    case 'mac':
      return { setup: `launchctl setenv OLLAMA_ORIGINS "${value}"`, manual: `OLLAMA_ORIGINS="${value}" ollama serve` };
    case 'windows':
      return { setup: `setx OLLAMA_ORIGINS "${value}"`, manual: `$env:OLLAMA_ORIGINS="${value}"; ollama serve` };
    case 'linux':
      return {
        setup: `sudo mkdir -p /etc/systemd/system/ollama.service.d && printf '[Service]\\nEnvironment="OLLAMA_ORIGINS=${value}"\\n' | sudo tee /etc/systemd/system/ollama.service.d/ratify.conf && sudo systemctl daemon-reload && sudo systemctl restart ollama`,
        manual: `OLLAMA_ORIGINS="${value}" ollama serve`,
      };
  }
}
