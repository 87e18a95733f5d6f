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
 * So output grows with n²: the k-th paragraph's revisions rewrite k paragraphs each. */
import type { LlmRequest, Reply, Responder } from '../test/harness/fake-llm.ts';
import { shortQuery, type BenchQuestion } from './questions';

function section(text: string, name: string): string {
  const at = text.indexOf(`##${name}:`);
  if (at < 0) return '';
  const rest = text.slice(at + name.length + 3);
  const end = rest.indexOf('\n\n##Instruction:');
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
    if (user.includes('with step-by-step thoughts')) return { content: q.thoughts.map((t) => t.text).join('\n\n') };
    if (user.includes('Split the answer to the question')) {
      const draft = section(user, 'Response');
      return { content: draft.split(/\n\n+/).join('\n##\n') };
    }
    if (user.includes('used as a query for a web search engine')) {
      const paras = section(user, 'Content').split(/\n\n+/);
      return { content: shortQuery(paras[paras.length - 1] ?? q.question) };
    }
    if (user.includes('I want to revise the answer')) {
      const page = section(user, 'Existing Text in Wiki Web');
      const paras = section(user, 'Answer').split(/\n\n+/).filter(Boolean);
      const have = paras.join(' ');
      const add = sentencesOf(page)
        .filter((s) => !have.includes(s))
        .slice(0, details);
      if (add.length && paras.length) paras[paras.length - 1] = `${paras[paras.length - 1]} ${add.join(' ')}`;
      return { content: paras.join('\n\n') };
    }
    if (user.includes('Give the answer to the question a title')) {
      const answer = user.split('##Answer:\n')[1]?.split('\n\n##Instruction:')[0] ?? '';
      const paras = answer.split(/\n\n+/).filter(Boolean);
      return { content: [`# ${q.question.replace(/\?$/, '')}`, ...paras.map((p) => `${subtitle(p)}\n\n${p}`)].join('\n\n') };
    }
    return { content: `Echo: ${user.slice(0, 200)}` };
  };
}
