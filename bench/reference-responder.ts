/** The scripted model behind the reference loop. It reads each prompt as a model would (which
 * instruction, which answer so far, which page text) and writes what a model following the
 * authors' prompts writes, at realistic lengths:
 *
 * - draft: the question's thoughts as paragraphs (the same text Ratify drafts as steps);
 * - split: the draft again, paragraphs joined by ##;
 * - query: a short query from the last paragraph of the content;
 * - revise: the WHOLE answer so far again, with `details` sentences from the page added to the
 *   current (last) paragraph, because the revise prompt says "add more details from the retrieved
 *   text" (0 turns that off: the answer is copied unchanged, the lower bound);
 * - titles: a title, then a subtitle above every paragraph.
 *
 * So output grows with n²: the k-th paragraph's revisions rewrite k paragraphs each. It tells the
 * calls apart by the prompts' sections and instructions as reference-rat.ts writes them.
 */
import type { LlmRequest, Reply, Responder } from '../test/harness/fake-llm.ts';
import { shortQuery, type BenchQuestion } from './questions';
import { REF_INSTRUCTIONS, REF_SECTION as S } from './reference-rat';

/** A section's text: from its heading to the instruction (which every prompt ends with). */
function section(text: string, heading: string): string {
  const at = text.indexOf(heading);
  if (at < 0) return '';
  const rest = text.slice(at + heading.length);
  const end = rest.indexOf(`\n\n${S.instruction}`);
  return (end < 0 ? rest : rest.slice(0, end)).trim();
}

function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 30);
}

function subtitle(paragraph: string): string {
  return `## ${shortQuery(paragraph).split(' ').slice(0, 4).join(' ')}`;
}

export function referenceResponder(q: BenchQuestion, details: number): Responder {
  return (req: LlmRequest): Reply => {
    const user = req.lastUser;
    if (user.includes(REF_INSTRUCTIONS.draft)) return { content: q.thoughts.map((t) => t.text).join('\n\n') };
    if (user.includes(S.response)) {
      const draft = section(user, S.response);
      return { content: draft.split(/\n\n+/).join('\n##\n') };
    }
    if (user.includes(S.content)) {
      const paras = section(user, S.content).split(/\n\n+/);
      return { content: shortQuery(paras[paras.length - 1] ?? q.question) };
    }
    if (user.includes(S.page)) {
      const page = section(user, S.page);
      const paras = section(user, S.answer).split(/\n\n+/).filter(Boolean);
      const have = paras.join(' ');
      const add = sentencesOf(page)
        .filter((s) => !have.includes(s))
        .slice(0, details);
      if (add.length && paras.length) paras[paras.length - 1] = `${paras[paras.length - 1]} ${add.join(' ')}`;
      return { content: paras.join('\n\n') };
    }
    if (user.includes(REF_INSTRUCTIONS.titles)) {
      const answer = section(user, S.answer);
      const paras = answer.split(/\n\n+/).filter(Boolean);
      return { content: [`# ${q.question.replace(/\?$/, '')}`, ...paras.map((p) => `${subtitle(p)}\n\n${p}`)].join('\n\n') };
    }
    return { content: `Echo: ${user.slice(0, 200)}` };
  };
}
