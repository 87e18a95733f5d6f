/** Information flow: where each text that enters a prompt came from, and what each sink may take
 * (SECURITY.md, "What leaves the machine, by construction").
 *
 * Every text has origins: what the user typed, what the user selected, the page the user is on,
 * other open tabs (their titles and addresses too), web results (already public). A model's
 * output has the origins of everything its call saw. The rule for the network: a search query
 * (and so which result pages are fetched) may only be written from text whose origins are all
 * typed, selected or web. The pipeline keeps it by construction:
 *
 *  - the web is searched with queries written by the *gate* (ask) or the *search plan* (verify),
 *    calls whose prompts are built from `gateView` alone: the question as the user typed it, the
 *    user's selection, and earlier turns of the thread whose own origins allow it. They never see
 *    the page, the tabs or the tab catalogue, so nothing those contain can choose a word, a
 *    number, their order, or whether a search happens;
 *  - every later call (draft, revisions, answer) sees the run's whole context; its queries reach
 *    the web only when that context is itself network-safe (no tab, no page in scope), and
 *    otherwise search the local library: the tabs and the result pages already fetched;
 *  - `toWebQuery` is the only way to make a `WebQuery`, and the library searches the web with
 *    nothing else (lint forbids casting one elsewhere). */
import type { RunInput, RunMode, TextOrigin, ThreadTurn } from './run';

export type { TextOrigin };

/** A query that may go to web search. Only `toWebQuery` below makes one, from text written by a
 * call that saw nothing but network-safe text; lint forbids casting to it anywhere else. */
export type WebQuery = string & { readonly __webQuery: 'network-safe' };

/** What may influence a request to a search provider or a fetched page. */
const NETWORK_SAFE: ReadonlySet<TextOrigin> = new Set<TextOrigin>(['typed', 'selected', 'web']);

/** Origins of a stored text from before origins were recorded: it may hold anything. */
export const UNKNOWN_ORIGINS: readonly TextOrigin[] = ['typed', 'page', 'tab', 'web'];

export function networkSafe(origins: readonly TextOrigin[]): boolean {
  return origins.every((o) => NETWORK_SAFE.has(o));
}

const ORDER: TextOrigin[] = ['typed', 'selected', 'page', 'tab', 'web'];

export function unionOrigins(...lists: (readonly TextOrigin[] | undefined)[]): TextOrigin[] {
  const all = new Set(lists.flatMap((l) => l ?? []));
  return ORDER.filter((o) => all.has(o));
}

/** The one way to make a web query: text whose origins are all network-safe. */
export function toWebQuery(text: string, origins: readonly TextOrigin[]): WebQuery | undefined {
  const q = text.replace(/\s+/g, ' ').trim();
  if (!q || !networkSafe(origins)) return undefined;
  return q as WebQuery;
}

/** What the library may return: open tabs (the page the user is on among them), web results. */
export interface LibraryReach {
  tabs: boolean;
  web: boolean;
}

/** Origins of the run's input text: typed (ask; a rewrite the user edited keeps the origins of
 * the call that wrote it) or selected (verify; and a page check: the user chose to check that
 * page, so its visible article text counts as selected). */
export function inputOrigins(input: RunInput, mode: RunMode): TextOrigin[] {
  if (mode === 'verify' || mode === 'page') return ['selected'];
  return unionOrigins(['typed'], input.origins);
}

/** Origins of a thread's earlier answer: what its run could read. */
export function turnOrigins(turn: ThreadTurn): { question: TextOrigin[]; answer: TextOrigin[] } {
  return { question: unionOrigins(turn.questionOrigins ?? ['typed']), answer: unionOrigins(turn.answerOrigins ?? UNKNOWN_ORIGINS) };
}

/** Everything any call after the gate may see in this run: the input, the page (ask: when the
 * user's sources include it; verify: the page the selection came from), the tabs and the web the
 * library may return, and the thread's earlier turns. The run's answer carries these origins. */
export function contextOrigins(input: RunInput, mode: RunMode, reach: LibraryReach): TextOrigin[] {
  const page = input.page;
  const hasPage = !!page && !!(page.title || page.url || page.text || page.surrounding);
  return unionOrigins(
    inputOrigins(input, mode),
    page?.selection ? ['selected'] : [],
    // A page check's page is its input, chosen by the user (selected).
    hasPage && mode !== 'page' ? ['page'] : [],
    reach.tabs ? ['tab'] : [],
    reach.web ? ['web'] : [],
    ...(input.thread?.turns ?? []).flatMap((t) => {
      const o = turnOrigins(t);
      return [o.question, o.answer];
    }),
  );
}

/** What the gate (and verify's search plan) may read: network-safe text only. */
export interface GateView {
  /** The question as typed (verify: the selection). */
  text: string;
  /** Ask: what the user selected on the page, if anything. */
  selection?: string;
  /** Earlier turns: each question, and its answer only where the answer is network-safe. */
  turns: { question: string; answer?: string }[];
  /** The user confirmed how the question is meant (edited the rewrite): not rewritten again. */
  confirmed: boolean;
  /** Origins of everything above: network-safe by construction. */
  origins: TextOrigin[];
}

export function gateView(input: RunInput, mode: RunMode): GateView {
  // A question whose origins are not network-safe (never, while the gate is the only writer of
  // rewrites) falls back to what the user had typed.
  const text = networkSafe(inputOrigins(input, mode)) ? input.text.trim() : (input.asked ?? '').trim();
  const origins: TextOrigin[][] = [mode === 'verify' ? ['selected'] : ['typed']];
  const turns = (input.thread?.turns ?? []).flatMap((t) => {
    const o = turnOrigins(t);
    if (!networkSafe(o.question)) return [];
    origins.push(o.question);
    const answer = networkSafe(o.answer) && t.answer.trim() ? t.answer : undefined;
    if (answer) origins.push(o.answer);
    return [{ question: t.question, ...(answer ? { answer } : {}) }];
  });
  const selection = mode === 'ask' && input.page?.selection?.trim() ? input.page.selection : undefined;
  if (selection) origins.push(['selected']);
  if (text && text === input.text.trim()) origins.push(inputOrigins(input, mode));
  return { text, ...(selection ? { selection } : {}), turns, confirmed: input.asked !== undefined, origins: unionOrigins(...origins) };
}
