/** Reading a chat request the way OpenAI-compatible servers do. */
import { MARK } from '../../lib/core/prompt-sections.ts';

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

/** The pipeline stage a request is for: its json_schema's name, or, for an endpoint that takes no
 * json_schema (prompt mode), the schema named in its system message. */
export function stageOf(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const rf = isRecord(body.response_format) ? body.response_format : undefined;
  if (rf?.type === 'json_schema' && isRecord(rf.json_schema) && typeof rf.json_schema.name === 'string') return rf.json_schema.name;
  const system = Array.isArray(body.messages) ? body.messages.find((m): m is Record<string, unknown> => isRecord(m) && m.role === 'system') : undefined;
  return schemaNamed(contentText(system?.content));
}

/** The schema a system message names (prompt mode: MARK.schema). */
export function schemaNamed(system: string): string | undefined {
  const [before = '', after = ''] = MARK.schema('\u0000').split('\u0000');
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${escape(before)}([\\w-]+)${escape(after)}`).exec(system)?.[1];
}


/** The stages of a run the gate answered unaided, without the draft sent beside the gate
 * ("Faster answers", ask.ts draftBesideGate), which the decision stopped: with a model that answers
 * at once, whether it reached the server first is chance. There is at most one. */
export function withoutBesideDraft(stages: readonly (string | undefined)[]): (string | undefined)[] {
  if (stages.filter((s) => s === 'draft').length > 1) throw new Error(`More than one draft beside the gate: ${stages.join(', ')}`);
  return stages.filter((s) => s !== 'draft');
}

/** For `.filter`: all but the answer written beside the last step's revision (answer-beside.ts).
 * That call races the revision: with a model that answers at once, whether it reaches the server
 * before the revision has made it moot is chance. Tests of other things count calls without it;
 * answer-beside.test.ts counts it, with latency. */
export function notBeside(x: string | { stage?: string }): boolean {
  return (typeof x === 'string' ? x : x.stage) !== 'final-answer';
}
