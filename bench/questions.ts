/** The benchmark's questions and what the scripted model "thinks" about each.
 *
 * Both pipelines are scripted from the same content so that neither gets shorter text to write:
 * for every question, six thoughts are taken from the HotpotQA paragraphs themselves (the gold
 * paragraphs' sentences first, interleaved, then the other paragraphs' first sentences). Ratify's
 * draft steps and the reference's draft paragraphs are those same six thoughts, word for word.
 * (The reference's own draft prompt asks for structured paragraphs, which real models write
 * longer than Ratify's "one or two sentences" per step; we do not count that in its favour or
 * against it.) */
import { readFileSync } from 'node:fs';
import type { MemoryDoc } from '../test/harness/memory-library';
import { fallbackQuery } from '../lib/pipeline/step-query';

export interface Thought {
  text: string;
  /** A phrase of the source passage the revision cites (the pipeline responder looks for it). */
  phrase: string;
}

export interface BenchQuestion {
  id: string;
  type: 'bridge' | 'comparison';
  question: string;
  answer: string;
  docs: MemoryDoc[];
  thoughts: Thought[];
  /** What a concise final (or direct) answer looks like: the gold answer and one supporting thought. */
  finalAnswer: string;
  /** Titles of the gold (supporting) paragraphs. */
  gold: string[];
}

interface HotpotRecord {
  _id: string;
  question: string;
  answer: string;
  type: 'bridge' | 'comparison';
  context: [string, string[]][];
  supporting_titles?: string[];
}

/** The sample in the repository (test/fixtures/README.md), relative to the repository root. */
export const DEFAULT_DATA = 'test/fixtures/data/hotpotqa-dev-distractor-sample.jsonl';

function wikiUrl(title: string): string {
  return `https://en.wikipedia.org/wiki/${encodeURIComponent(title.replace(/ /g, '_'))}`;
}

/** A sentence as a thought: trimmed, at most ~240 characters, cut at a word boundary. */
function asThought(sentence: string): string {
  const s = sentence.replace(/\s+/g, ' ').trim();
  if (s.length <= 240) return s;
  const cut = s.lastIndexOf(' ', 240);
  return `${s.slice(0, cut > 120 ? cut : 240)}.`;
}

/** The first words of a sentence, as they appear in the paragraph (so the responder can find and
 * quote them in a retrieved passage). Twelve words: Ratify's revise prompt allows quotes of up to
 * 25, and the quote is part of what each revision writes. */
function phraseOf(sentence: string, words = 12): string {
  return sentence.replace(/\s+/g, ' ').trim().split(' ').slice(0, words).join(' ');
}

export function thoughtsFor(rec: HotpotRecord, n: number): Thought[] {
  const gold = new Set(rec.supporting_titles ?? []);
  const golds = rec.context.filter(([t]) => gold.has(t));
  const others = rec.context.filter(([t]) => !gold.has(t));
  const picked: string[] = [];
  const usable = (s: string) => s.trim().length >= 30;
  // Gold sentences, interleaved between the gold paragraphs: s0 of A, s0 of B, s1 of A, …
  const depth = Math.max(0, ...golds.map(([, s]) => s.length));
  for (let i = 0; i < depth && picked.length < n; i++)
    for (const [, sents] of golds) {
      const s = sents[i];
      if (s && usable(s) && picked.length < n) picked.push(s);
    }
  for (const [, [first]] of others) if (picked.length < n && first && usable(first)) picked.push(first);
  return picked.map((s) => ({ text: asThought(s), phrase: phraseOf(s) }));
}

/** A short search query for a piece of text (used by both pipelines' scripted models, so their
 * queries cost the same). */
export function shortQuery(text: string): string {
  return fallbackQuery(text, '', 8);
}

/** `count` questions, half bridge and half comparison (the file holds 250 of each), from the
 * start of each half so the selection is stable. Questions with fewer than `steps` usable
 * thoughts are skipped. */
export function loadQuestions(count: number, steps: number, file = DEFAULT_DATA): BenchQuestion[] {
  const recs = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as HotpotRecord);
  const pick = (type: HotpotRecord['type'], want: number): BenchQuestion[] => {
    const out: BenchQuestion[] = [];
    for (const rec of recs) {
      if (out.length >= want) break;
      if (rec.type !== type) continue;
      const thoughts = thoughtsFor(rec, steps);
      if (thoughts.length < steps) continue;
      const docs = rec.context.map(([title, sents]) => ({ url: wikiUrl(title), title, text: sents.join('').replace(/\s+/g, ' ').trim(), origin: 'tab' as const }));
      const finalAnswer = `${rec.answer}. ${thoughts[0]?.text ?? ''}`;
      out.push({ id: rec._id, type, question: rec.question, answer: rec.answer, docs, thoughts, finalAnswer, gold: rec.supporting_titles ?? [] });
    }
    return out;
  };
  const bridge = Math.ceil(count / 2);
  return [...pick('bridge', bridge), ...pick('comparison', count - bridge)];
}
