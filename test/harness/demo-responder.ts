/**
 * The "demo model" behind `npm start` when no real endpoint is configured. It is not a language
 * model: it answers from the fixture articles so a newcomer can see a whole run (gate, draft,
 * revision with citations, verdicts) without an API key. Pipeline stages go through
 * pipelineResponder with a scenario built for each request from the question or selection; a
 * plain chat call gets the best matching corpus sentences, labelled as coming from the demo model.
 */
import type { Responder } from './fake-llm.ts';
import type { FixtureDoc } from './fixture-corpus.ts';
import { pipelineResponder, type ScenarioClaim } from './pipeline-responder.ts';
import { dataBlocks, line, SECTION, stageOf } from './prompt-reader.ts';

export const DEMO_MODEL = 'ratify-demo-model';

interface CorpusSentence {
  text: string;
  title: string;
  terms: Set<string>;
}

const STOP = new Set(
  'the a an and or of in on at to for with by from is was were are be been it its this that which who whom what when where how did does do as he she they his her their than then also into about after before'.split(' '),
);

/** Words for spaced scripts, character pairs for Chinese and Japanese. */
function terms(s: string): Set<string> {
  const out = new Set<string>();
  for (const w of s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(w)) {
      for (let i = 0; i < w.length - 1; i++) out.add(w.slice(i, i + 2));
    } else if (w.length > 1 && !STOP.has(w)) out.add(w);
  }
  return out;
}

function splitSentences(text: string): string[] {
  return text
    .replace(/^=+ .* =+$/gm, '')
    .split(/(?<=[.!?。！？])\s*/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 8);
}

function numbers(s: string): string[] {
  return s.match(/\d[\d,.]*\d|\d/g) ?? [];
}

export function demoCorpus(docs: FixtureDoc[]): CorpusSentence[] {
  return docs.flatMap((d) => splitSentences(d.text).map((text) => ({ text, title: d.title, terms: terms(text) })));
}

/** The corpus sentences that share the most terms with `query`, best first, terms weighted by how
 * rare they are in the corpus (so "the" or a common character pair counts little). Claims need
 * three shared terms, so "He moved to Paris in 1920" alone matches nothing. */
export function best(corpus: CorpusSentence[], query: string, k: number, minHits = 2): { s: CorpusSentence; score: number }[] {
  // Terms no sentence has cannot tell sentences apart (Chinese character pairs across word
  // boundaries, "which" or "book"): they are left out of the measure.
  const all = terms(query);
  const q = new Set([...all].filter((t) => corpus.some((s) => s.terms.has(t))));
  if (!q.size) return [];
  const idf = (t: string) => Math.log(1 + corpus.length / corpus.filter((s) => s.terms.has(t)).length);
  const total = [...q].reduce((n, t) => n + idf(t), 0);
  return corpus
    .map((s) => {
      let hit = 0;
      let w = 0;
      for (const t of q)
        if (s.terms.has(t)) {
          hit++;
          w += idf(t);
        }
      return { s, hit, score: w / total };
    })
    .filter((x) => x.score >= 0.25 && x.hit >= Math.min(minHits, all.size))
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
}

/** "How tall is it, and who built it?" → its parts; each is searched with the whole question's
 * words as context (a part alone, "who built it", says too little). */
function parts(question: string): string[] {
  const ps = question
    .split(/,\s*(?:and|or)\s+|;\s*|\s+and\s+(?=(?:who|what|when|where|why|how|which)\b)|，|；|以及/i)
    .map((x) => x.trim())
    .filter((x) => x.length > 2);
  return ps.length > 1 ? ps : [question];
}

function stepsFor(corpus: CorpusSentence[], question: string): string[] {
  // The article the whole question is about; each part is answered from it when it can be.
  const topic = best(corpus, question, 1)[0]?.s.title;
  const within = corpus.filter((s) => s.title === topic);
  const out: string[] = [];
  // Inside the article its own name tells nothing: "Where was Marie Curie born?" is about "born".
  const name = terms(topic ?? '');
  const bare = (p: string) => [...terms(p)].filter((w) => !name.has(w)).join(' ') || p;
  for (const part of parts(question)) {
    const hit = [...best(within, bare(part), 3, 1), ...best(corpus, `${part} ${question}`, 3)].find((x) => !out.includes(x.s.text));
    if (hit) out.push(hit.s.text);
  }
  // A one-part question gets a second thought when another sentence answers it nearly as well.
  if (out.length === 1) {
    const more = best(within, question, 3).find((x) => !out.includes(x.s.text) && x.score >= 0.3);
    if (more) out.push(more.s.text);
  }
  return out;
}

const PAGE_QUESTION = /\b(this|the) (page|article|site)\b|\bsummari[sz]e\b|这(个|篇)?(页面?|网页|文章)|总结|概括/i;
const PRONOUN = /\b(he|she|it|they|him|her|his|its|their)\b|[他她它]/i;

/** What the conversation was about: the article its last question matched best. */
function topicOf(corpus: CorpusSentence[], conversation: string): string | undefined {
  const lastQ = [...conversation.matchAll(/^Q\d+: (.*)$/gm)].at(-1)?.[1];
  return lastQ ? best(corpus, lastQ, 1)[0]?.s.title : undefined;
}

/** A follow-up with a pronoun, resolved from the conversation the way a model would. */
function resolveFollowUp(question: string, topic: string | undefined): string | undefined {
  if (!topic || !PRONOUN.test(question)) return undefined;
  return question.replace(PRONOUN, (w) => (/^(his|its|their)$/i.test(w) ? `${topic}'s` : topic));
}

/** A short stretch of the sentence to cite, found verbatim in the evidence when retrieval brought it. */
function phraseOf(sentence: string): string {
  if (!/\s/.test(sentence)) return sentence.slice(0, 12);
  return sentence.split(/\s+/).slice(0, 6).join(' ');
}

/** A claim judged against its best evidence sentences: numbers the evidence does not contain
 * make it corrected (each swapped for the nearest number the evidence gives). */
function judge(corpus: CorpusSentence[], sentence: string): ScenarioClaim {
  const top = best(corpus, sentence, 5, 3).filter((x, _, all) => x.s.title === all[0]!.s.title);
  const head = top[0];
  if (!head) return { claim: sentence, sentence, verdict: 'unverifiable', explanation: 'The demo model found nothing on this in the demo articles.' };
  const title = head.s.title;
  const claimed = numbers(sentence);
  // Numbers anywhere in that article count: a claim often joins facts from several sentences.
  const article = corpus.filter((x) => x.title === title);
  const found = [...new Set(article.flatMap((x) => numbers(x.text)))];
  const wrong = claimed.filter((n) => !found.includes(n));
  if (!wrong.length) return { claim: sentence, sentence, phrase: phraseOf(head.s.text), verdict: 'supported', explanation: `Agrees with "${title}".` };
  const value = (n: string) => Number(n.replace(/,/g, ''));
  const isYear = (n: string) => /^(1\d|20)\d\d$/.test(n);
  let corrected = sentence;
  const fixes: string[] = [];
  for (const n of wrong) {
    const alt = found.filter((m) => !claimed.includes(m) && isYear(m) === isYear(n)).sort((a, b) => Math.abs(value(a) - value(n)) - Math.abs(value(b) - value(n)))[0];
    if (alt) {
      corrected = corrected.replace(n, alt);
      fixes.push(`${alt}, not ${n}`); // "alt, not n": the first part is read back below
    }
  }
  const alts = fixes.map((f) => f.split(',')[0] ?? f);
  const evidence = article.find((x) => alts.some((a) => numbers(x.text).includes(a)))?.text ?? head.s.text;
  return {
    claim: sentence,
    sentence,
    phrase: phraseOf(evidence),
    verdict: fixes.length ? 'corrected' : 'refuted',
    corrected: fixes.length ? corrected : evidence,
    explanation: fixes.length ? `"${title}" says ${fixes.join('; ')}.` : `"${title}" says otherwise.`,
  };
}

/** Not claims: questions, the page's instructions to its reader, and sentences without a name or
 * figure the demo articles could speak to. Most check-worthy first: those with figures. */
function pageClaims(corpus: CorpusSentence[], text: string): ScenarioClaim[] {
  return splitSentences(text)
    .filter((x) => !/[?？]$/.test(x) && !/^(select|open|ask|try|click|choose|right-click)\b/i.test(x))
    .map((x) => ({ ...judge(corpus, x), worthiness: numbers(x).length ? 0.9 : 0.6 }))
    .filter((c) => c.phrase || numbers(c.claim).length);
}

export function demoResponder(docs: FixtureDoc[]): Responder {
  const corpus = demoCorpus(docs);
  return (req) => {
    const stage = stageOf(req);
    if (!stage) {
      // Plain chat: the walking-skeleton path answers straight from the model.
      const top = best(corpus, req.lastUser, 3);
      const body = top.length ? top.map((x) => x.s.text).join(' ') : 'The demo corpus has nothing on that; configure a real model to ask about anything.';
      return { content: `(Answer from Ratify's demo model, which only knows the fixture articles.) ${body}` };
    }
    const question = line(req.lastUser, SECTION.question) ?? '';
    const blocks = dataBlocks(req.lastUser);
    const selection = blocks.find((b) => b.attrs.kind === 'selection')?.text ?? '';
    const pageText = blocks.find((b) => b.attrs.kind === 'page')?.text ?? '';
    const conversation = blocks.find((b) => b.attrs.kind === 'conversation')?.text ?? '';
    const claim = line(req.lastUser, SECTION.claim);
    // A selection only makes claims in verify mode (a question carries the page's selection too);
    // a page to check, its sentences that state something checkable.
    const claims = selection && stage === 'claims' ? splitSentences(selection).map((x) => judge(corpus, x)) : stage === 'page-claims' ? pageClaims(corpus, pageText) : [];
    if (claim && !claims.some((c) => c.claim === claim)) claims.unshift(judge(corpus, claim));
    // The gate judges from the wording alone (it never sees the page); the draft, which reads the
    // page, takes its thoughts from it.
    const aboutPage = PAGE_QUESTION.test(question);
    const fromPage = aboutPage && !!pageText.trim() && pageText !== '(no page text)';
    const rewrite = resolveFollowUp(question, topicOf(corpus, conversation));
    // About the page: its opening sentences are the thoughts to check (the page is the primary
    // source); otherwise the corpus sentences that best answer each part of the question.
    const steps = fromPage ? splitSentences(pageText).slice(0, 3) : stepsFor(corpus, question);
    return pipelineResponder({
      gate: { label: rewrite ? 'incomplete' : 'clear', question: rewrite, confidence: 0.2, aboutPage },
      answer: (q) => `(demo model) ${best(corpus, q, 1)[0]?.s.text ?? 'I do not know.'}`,
      steps: steps.length ? steps : [`The demo corpus may not cover this: ${question}`],
      facts: steps.map((text, step) => ({ step, phrase: phraseOf(text) })),
      claims: claims.length ? claims : undefined,
    })(req);
  };
}
