/**
 * Reading a Ratify prompt the way a model does, by its structure: the labelled lines, headed
 * lists, marker sentences and DATA blocks that lib/core/prompt-sections.ts names and the product's
 * prompts write. The scripted models (pipeline-responder.ts, gullible-responder.ts,
 * demo-responder.ts, the benchmark's) read prompts only through these, never by their prose, so a
 * prompt reworded in the product is still read.
 */
import { MARK, POSITION, SECTION } from '../../lib/core/prompt-sections.ts';
import { schemaNamed } from './fake-llm-request.ts';

export { MARK, SECTION };

export interface DataBlock {
  attrs: Record<string, string>;
  text: string;
}

/** The DATA blocks of a prompt, in order, as a model would read them. */
export function dataBlocks(text: string): DataBlock[] {
  const out: DataBlock[] = [];
  for (const m of text.matchAll(/<<<DATA ([^\n]*?)>>>\n([\s\S]*?)\n<<<END DATA>>>/g)) {
    const attrs: Record<string, string> = {};
    for (const a of (m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)) if (a[1]) attrs[a[1]] = a[2] ?? '';
    out.push({ attrs, text: m[2] ?? '' });
  }
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The value of a labelled line (`Question: …`), trimmed; undefined when the prompt has none. */
export function line(text: string, label: string): string | undefined {
  return new RegExp(`^${escape(label)}: (.*)$`, 'm').exec(text)?.[1]?.trim();
}

/** The numbered items under a heading (`Later steps (drafts):` then `3. …`), in order. */
export function listUnder(text: string, heading: string): string[] {
  const at = text.indexOf(`${heading}:\n`);
  if (at < 0) return [];
  const out: string[] = [];
  for (const l of text.slice(at + heading.length + 2).split('\n')) {
    const m = /^\d+\. (.*)$/.exec(l);
    if (!m) break;
    out.push(m[1] ?? '');
  }
  return out;
}

/** The text between a heading (`Findings:`) and the next heading among `until` (or the end). */
export function sectionText(text: string, heading: string, until: string[] = []): string | undefined {
  const at = text.indexOf(`${heading}:\n`);
  if (at < 0) return undefined;
  const rest = text.slice(at + heading.length + 2);
  const ends = until.map((h) => rest.indexOf(`\n\n${h}`)).filter((i) => i >= 0);
  return ends.length ? rest.slice(0, Math.min(...ends)) : rest;
}

/** A chain's position line (`Current step: 2 of 6 (search round 2)`): 1-based, the count when
 * shown, the round (1 when not shown). */
export function positionOf(text: string, label: string): { at: number; total?: number; round: number } | undefined {
  const m = new RegExp(`^${escape(label)}: (\\d+)(?: ${escape(POSITION.of)} (\\d+))?(?: \\(${escape(POSITION.round)} (\\d+)\\))?`, 'm').exec(text);
  if (!m) return undefined;
  return { at: Number(m[1]), ...(m[2] ? { total: Number(m[2]) } : {}), round: m[3] ? Number(m[3]) : 1 };
}

/** The number a parametrised marker carries (`MARK.atMost` → 12), when the text has it. */
export function markedNumber(text: string, marker: (n: string) => string): number | undefined {
  const [before = '', after = ''] = marker('\u0000').split('\u0000');
  const m = new RegExp(`${escape(before)}(\\d+)${escape(after)}`).exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The stage a request's reply is for: the json_schema name, or (prompt-only fallback) the
 * schema the system message names. */
export function stageOf(req: { stage?: string; system: string }): string | undefined {
  return req.stage ?? schemaNamed(req.system);
}

/** Where a revision or a check stands, from its system message and prompt. */
export function standing(system: string): { lastRound: boolean; lastStep: boolean; lastClaim: boolean; allLaterQueries: boolean } {
  return {
    lastRound: system.includes(MARK.lastRound),
    lastStep: system.includes(MARK.lastStep),
    lastClaim: system.includes(MARK.lastClaim),
    allLaterQueries: system.includes(MARK.allLaterQueries),
  };
}

/** Whether a draft's prompt asks for a search query with each step (lib/pipeline/draft-queries.ts). */
export function asksStepQueries(system: string): boolean {
  return system.includes(MARK.draftQuery);
}

/** The drafts of the later steps (or the next step alone) or later claims a call is shown. */
export function laterItems(user: string): string[] {
  return [...listUnder(user, SECTION.laterSteps), ...listUnder(user, SECTION.nextStep), ...listUnder(user, SECTION.laterClaims)];
}
