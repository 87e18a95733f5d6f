/** Part 3c on the retrieval development set (bench/retrieval/devset/): the set's premise is that
 * the user has its 44 real pages open as tabs, so "with tabs" opens all of them; the web holds
 * the same pages at the same addresses (a search engine that returns them with their text). The
 * scripted draft has one step per page that answers, its text the gold span, as a model that
 * knew the answer would write it. Nothing is tuned here: every question of both parts is used. */
import { loadPages, loadQuestions, type DevQuestion } from './retrieval/devset/dataset';
import type { Thought } from './questions';
import { formatWebRule, runWebRule, type WebRuleWorld } from './web-rule';
import type { MemoryTab } from '../test/harness/memory-tabs';

const words = (s: string, n: number) => s.split(/\s+/).filter(Boolean).slice(0, n).join(' ');

export async function devsetWorlds(questions: DevQuestion[] = loadQuestions()): Promise<WebRuleWorld[]> {
  const pages = await loadPages();
  const byName = new Map(pages.map((p) => [p.name, p]));
  const docs = pages.map((p) => ({ url: p.url, title: p.page.title, text: p.page.text }));
  const tabs: MemoryTab[] = pages.map((p, i) => ({ id: i + 1, url: p.url, title: p.page.title, page: p.page }));
  return questions.map((q) => {
    // One thought per page that answers (its first span; several spans on a page are alternatives).
    const firstSpans = [...new Map(q.gold.map((g) => [g.page, g.span])).entries()];
    const thoughts: Thought[] = firstSpans.map(([, span]) => ({ text: span.slice(0, 300), phrase: words(span, 6) }));
    const gold = firstSpans.map(([page]) => byName.get(page)?.page.title ?? page);
    return { id: q.id, group: q.category, question: q.question, docs, thoughts, finalAnswer: thoughts[0]?.text ?? '', gold, tabs };
  });
}

export async function runWebRuleDevset(log?: (s: string) => void) {
  return runWebRule(await devsetWorlds(), log);
}

export { formatWebRule };
