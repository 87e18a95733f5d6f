/** Making a prompt smaller when it does not fit the model's context window: fewer passages,
 * shorter quotes. Evidence enters every prompt as DATA blocks (lib/pipeline/prompts.ts,
 * `dataBlock`), whose delimiters page text cannot forge, so they can be found and cut here
 * without knowing which stage built the prompt. */
import type { ChatMessage } from './types';

const BLOCK = /<<<DATA ([^\n]*)>>>\n([\s\S]*?)\n<<<END DATA>>>/g;

/** The messages with half of the passages (the later, lower-ranked ones) left out and every
 * DATA text cut to `keep` of its length. Undefined when there is nothing left to cut. */
export function shrinkPrompt(messages: ChatMessage[], keep = 0.5): ChatMessage[] | undefined {
  let changed = false;
  const out = messages.map((m) => {
    const passages = [...m.content.matchAll(BLOCK)].filter((b) => /\bid="/.test(b[1] ?? '')).length;
    const keepPassages = Math.max(1, Math.ceil(passages * keep));
    let seen = 0;
    const content = m.content.replace(BLOCK, (whole, attrs: string, text: string) => {
      const isPassage = /\bid="/.test(attrs);
      if (isPassage && ++seen > keepPassages) {
        changed = true;
        return '';
      }
      const cut = cutText(text, Math.max(200, Math.floor(text.length * keep)));
      if (cut === text) return whole;
      changed = true;
      return `<<<DATA ${attrs}>>>\n${cut}\n<<<END DATA>>>`;
    });
    return content === m.content ? m : { ...m, content: content.replace(/\n{3,}/g, '\n\n') };
  });
  return changed ? out : undefined;
}

/** Cut at a sentence or word end before `max` characters. */
function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('。'));
  const end = sentence > max * 0.6 ? sentence + 1 : head.lastIndexOf(' ') > max * 0.6 ? head.lastIndexOf(' ') : max;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** Rough token count (4 characters a token) where the server gives none. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
