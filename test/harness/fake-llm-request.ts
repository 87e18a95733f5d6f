/** Reading a chat request the way OpenAI-compatible servers do. */

export function isExtensionOrigin(origin: string | undefined): boolean {
  return !!origin && (origin.startsWith('chrome-extension://') || origin.startsWith('moz-extension://'));
}

/** Message content may be a string or an array of parts; we only read the text parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p: unknown) => (p && typeof p === 'object' && 'text' in p && typeof p.text === 'string' ? p.text : ''))
      .join('');
  }
  return '';
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

export function stageOf(body: unknown): string | undefined {
  if (!isRecord(body) || !isRecord(body.response_format)) return undefined;
  const rf = body.response_format;
  return rf.type === 'json_schema' && isRecord(rf.json_schema) && typeof rf.json_schema.name === 'string' ? rf.json_schema.name : undefined;
}

