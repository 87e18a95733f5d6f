/** The RAT authors' demo loop, re-implemented for the benchmark only (never used by the product),
 * after ../shared/DESIGN.md §2.4 and the explainers in ../shared/seeds/rat-explainer-zh-*.txt:
 *
 *   draft ← LLM(question + "answer step by step, paragraphs split by blank lines")
 *   paragraphs ← LLM("split the answer into paragraphs with ##"), split on ##
 *   answer ← ""
 *   for each paragraph p:
 *     answer ← answer + "\n\n" + p
 *     query ← LLM(question, answer, "make a search query for the last sentences")   (time-out: skip)
 *     page ← fetch(top search result for query), cut into ~1,500-character chunks      (time-out: skip)
 *     for the first 2 chunks c: answer ← LLM(c, question, answer, "revise the WHOLE answer")
 *   answer ← LLM(question, answer, "add a title and subtitles")
 *
 * Everything is sequential, as in the original; a failed or timed-out call is skipped silently;
 * the page URL is dropped, so no citation survives. Calls go through Ratify's own LLM client
 * (the openai SDK) to the same fake server, so both pipelines are measured the same way.
 * Prompts are our paraphrases of the authors' instructions, of similar length. */
import type { CallUsage, ChatMessage, LlmClient } from '../lib/llm/types';

/** The authors used a generic "You are ChatGPT…" system message with the date. */
const SYSTEM = 'You are a large language model assistant. Knowledge cutoff: 2023-04. Current date: 2024-03-01.';

export const REF_STAGES = { draft: 'ref-draft', split: 'ref-split', query: 'ref-query', revise: 'ref-revise', titles: 'ref-titles' } as const;

const DRAFT_INSTRUCTION = `
IMPORTANT:
Answer this question or instruction with step-by-step thoughts and make the answer well structured.
Separate the answer into several paragraphs with \`\\n\\n\`.
Respond to the instruction directly. Do NOT add extra explanations or an introduction unless asked to.
`;

function splitInstruction(maxParagraphs: number): string {
  return `
Split the answer to the question into several paragraphs, each holding one complete thought.
Use fewer than ${maxParagraphs} paragraphs.
Separate the paragraphs with ## as the splitting mark.
So output the answer with ## between the paragraphs.
**IMPORTANT**
Output the result directly. Do NOT add extra explanations or an introduction unless asked to.
`;
}

const QUERY_INSTRUCTION = `
I want to check whether the content answering the question is correct, especially its last sentences.
Summarise the content together with its question.
The summary will be used as a query for a web search engine.
The query should be short but specific enough for the search engine to find relevant knowledge or pages.
You may use search syntax to keep the query short and clear enough for the engine to find relevant text.
Make the query as relevant as possible to the last few sentences of the content.
**IMPORTANT**
Output the query directly. Do NOT add extra explanations or an introduction unless asked to.
`;

const REVISE_INSTRUCTION = `
I want to revise the answer using retrieved text related to the question from wiki pages.
Check whether the answer is correct.
If you find errors in the answer, revise it to make it better.
If you find that necessary details are missing, add them from the related text to make the answer more plausible.
If the answer is right and needs no more details, output the original answer directly.
**IMPORTANT**
Keep the structure (several paragraphs with their subtitles) in the revised answer and make it structured for understanding.
Add more details from the retrieved text to the answer.
Separate the paragraphs with \\n\\n characters.
Output the revised answer directly. Do NOT add extra explanations or announcements unless asked to.
`;

const TITLES_INSTRUCTION = `
Give the answer to the question a title.
Add a subtitle to each paragraph of the answer and output the final answer in Markdown.
This makes the answer to this question look more structured and easier to understand.
**IMPORTANT**
Keep the structure (several paragraphs with their subtitles) in the response and make it structured for understanding.
Separate the paragraphs with \\n\\n characters.
Output the revised answer directly. Do NOT add extra explanations or announcements unless asked to.
`;

const msgs = (user: string): ChatMessage[] => [
  { role: 'system', content: SYSTEM },
  { role: 'user', content: user },
];

/** The sections of the authors' prompts (`##Question: …`), in their own markup. */
export const REF_SECTION = { question: '##Question:', response: '##Response:', content: '##Content:', answer: '##Answer:', page: '##Existing Text in Wiki Web:', instruction: '##Instruction:' } as const;

/** Each prompt's instruction, by stage: the scripted reference model (reference-responder.ts)
 * tells the calls apart by them. */
export const REF_INSTRUCTIONS = { draft: DRAFT_INSTRUCTION, split: splitInstruction, query: QUERY_INSTRUCTION, revise: REVISE_INSTRUCTION, titles: TITLES_INSTRUCTION } as const;

const S = REF_SECTION;
export const referencePrompts = {
  draft: (question: string) => msgs(`${question}${DRAFT_INSTRUCTION}`),
  split: (question: string, draft: string, maxParagraphs: number) => msgs(`${S.question} ${question}\n\n${S.response} ${draft}\n\n${S.instruction} ${splitInstruction(maxParagraphs)}`),
  query: (question: string, answer: string) => msgs(`${S.question} ${question}\n\n${S.content} ${answer}\n\n${S.instruction} ${QUERY_INSTRUCTION}`),
  revise: (question: string, answer: string, chunk: string) => msgs(`${S.page} ${chunk}\n\n${S.question} ${question}\n\n${S.answer} ${answer}\n\n${S.instruction} ${REVISE_INSTRUCTION}`),
  titles: (question: string, answer: string) => msgs(`${S.question}\n${question}\n\n${S.answer}\n${answer}\n\n${S.instruction}\n${TITLES_INSTRUCTION}`),
};

/** The authors' chunk_texts, by characters: a text shorter than `size` is one chunk, otherwise it
 * is cut into floor(len / size) + 1 parts of equal length. Newlines become spaces. */
export function chunkTexts(text: string, size: number): string[] {
  if (text.length < size) return [text.replace(/\n/g, ' ')];
  const n = Math.floor(text.length / size) + 1;
  const base = Math.floor(text.length / n);
  const extra = text.length % n;
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = start + base + (i < extra ? 1 : 0);
    parts.push(text.slice(start, end).replace(/\n/g, ' '));
    start = end;
  }
  return parts;
}

/** The authors' split_draft: paragraphs longer than 5 characters. */
export function splitParagraphs(text: string, sep: string): string[] {
  return text.split(sep).filter((p) => p.length > 5);
}

export interface ReferenceDeps {
  llm: LlmClient;
  /** Web search, top result only. */
  search(query: string, signal: AbortSignal): Promise<{ url: string; title: string } | undefined>;
  /** The result page as text. */
  fetchPage(url: string, signal: AbortSignal): Promise<string | undefined>;
  /** Per step, as the demo's run_with_timeout (real milliseconds). */
  timeoutMs: number;
  chunkChars: number;
  chunksPerPage: number;
  /** The split prompt asks for fewer than this many paragraphs. */
  maxParagraphs: number;
  onUsage?: (u: CallUsage) => void;
  now?: () => number;
}

export interface ReferenceResult {
  draft: string;
  answer: string;
  paragraphs: number;
  /** When the draft call returned: the first moment any text exists (real ms since start). */
  firstTextMs: number;
  /** When the demo shows anything: its rat() returns draft and answer together at the end. */
  firstShownMs: number;
  ms: number;
  searches: number;
  fetches: number;
  skipped: number;
}

/** run_with_timeout: the step's result, or undefined on time-out or error (skipped silently). */
async function withTimeout<T>(ms: number, f: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
  const ctrl = new AbortController();
  const t = setTimeout(() => ctrl.abort(), ms);
  try {
    return await f(ctrl.signal);
  } catch {
    return undefined;
  } finally {
    clearTimeout(t);
  }
}

export async function referenceRat(question: string, d: ReferenceDeps): Promise<ReferenceResult> {
  const now = d.now ?? performance.now.bind(performance);
  const t0 = now();
  let searches = 0;
  let fetches = 0;
  let skipped = 0;
  const call = (stage: string, messages: ChatMessage[], signal?: AbortSignal) => d.llm.chat({ stage, messages, signal, temperature: 1, onUsage: d.onUsage });

  const draft = await call(REF_STAGES.draft, referencePrompts.draft(question));
  const firstTextMs = now() - t0;
  const split = await call(REF_STAGES.split, referencePrompts.split(question, draft, d.maxParagraphs));
  const paragraphs = splitParagraphs(split, '##');

  let answer = '';
  for (const p of paragraphs) {
    answer = `${answer}\n\n${p}`;
    const query = await withTimeout(d.timeoutMs, (s) => call(REF_STAGES.query, referencePrompts.query(question, answer), s));
    if (!query) {
      skipped++;
      continue;
    }
    const chunks = await withTimeout(d.timeoutMs, async (s) => {
      searches++;
      const top = await d.search(query, s);
      if (!top) return undefined;
      fetches++;
      const text = await d.fetchPage(top.url, s);
      return text ? chunkTexts(text, d.chunkChars) : undefined;
    });
    if (!chunks) {
      skipped++;
      continue;
    }
    for (const c of chunks.slice(0, d.chunksPerPage)) {
      const revised = await withTimeout(d.timeoutMs, (s) => call(REF_STAGES.revise, referencePrompts.revise(question, answer, c), s));
      if (!revised) {
        skipped++;
        continue;
      }
      answer = revised;
    }
  }
  const titled = await withTimeout(d.timeoutMs, (s) => call(REF_STAGES.titles, referencePrompts.titles(question, answer), s));
  if (titled) answer = titled;
  else skipped++;
  const ms = now() - t0;
  return { draft, answer, paragraphs: paragraphs.length, firstTextMs, firstShownMs: ms, ms, searches, fetches, skipped };
}
