/** From model text with passage aliases ([P2]) to the answer the user sees: markers replaced by
 * source numbers in order of first use (while streaming, too), and the numbered source list. */
import type { Passage } from '../core/passage';
import { aliasPassages, escapeBareNumbers, renumberMarkers, SourceList, type AliasMap } from './citations';
import { passagesById, type Ctx } from './context';
import type { Source, StepState } from '../core/run';

/** Streams model text that holds [P2]-style markers, replacing them with source numbers as they
 * complete (a marker cut between chunks is held back until it closes). Numbers follow first use,
 * as the final pass (buildSources) will number them. */
export class MarkerStream {
  private buf = '';
  private list = new SourceList();
  constructor(private aliases: AliasMap) {}
  push(delta: string): string {
    this.buf += delta;
    const open = this.buf.lastIndexOf('[');
    let cut = this.buf.length;
    if (open >= 0 && !this.buf.includes(']', open) && this.buf.length - open < 24) cut = open;
    const out = this.buf.slice(0, cut);
    this.buf = this.buf.slice(cut);
    return this.map(out);
  }
  flush(): string {
    const out = this.buf;
    this.buf = '';
    return this.map(out);
  }
  private map(s: string): string {
    // Markers that match no alias are dropped here as in the final pass (which counts them).
    return s ? renumberMarkers(escapeBareNumbers(s), this.aliases, (p) => this.list.number(p), () => {}) : '';
  }
}

/** The final answer's Markdown with [n] markers and its numbered sources: first the passages the
 * answer cites, in order of first use, then the other passages the steps cite. With `stepsFirst`
 * the steps' citations are numbered first (verify mode: sources follow the claims' order). */
export function buildSources(ctx: Ctx, raw: string, aliases: AliasMap, opts: { stepsFirst?: boolean; dropIndex?: number; order?: (steps: StepState[]) => StepState[] } = {}): { markdown: string; sources: Source[]; list: SourceList } {
  const run = ctx.run();
  const byId = passagesById(run);
  for (const p of aliases.values()) if (!byId.has(p.id)) byId.set(p.id, p);
  const quoteOf = (id: string) => {
    for (const s of run.steps) {
      const q = s.quotes?.[id];
      if (q) return q;
    }
    return '';
  };
  /** What a step looked for: its text and queries, to find the answering sentence of a passage. */
  const stepFocus = (s: StepState) => [s.revised ?? s.draft, ...s.queries.map((q) => q.query)].join(' ');
  const focusOf = (id: string) => {
    const s = run.steps.find((x) => x.citations.includes(id));
    return s ? stepFocus(s) : raw;
  };
  const list = new SourceList();
  const numberSteps = () => {
    // Each step's own quote: two steps citing one passage for two facts show both.
    for (const s of opts.order ? opts.order(run.steps) : run.steps)
      for (const id of s.citations) {
        const p = byId.get(id);
        if (p) list.number(p, s.quotes?.[id] ?? '', stepFocus(s));
      }
  };
  if (opts.stepsFirst) numberSteps();
  const markdown = renumberMarkers(
    escapeBareNumbers(raw),
    aliases,
    (p) => list.number(p, quoteOf(p.id), focusOf(p.id)),
    (alias) => ctx.emit({ type: 'citation-dropped', index: opts.dropIndex ?? -1, passageId: alias, reason: 'unknown-id' }),
  );
  if (!opts.stepsFirst) numberSteps();
  return { markdown: markdown.trim(), sources: list.list, list };
}

/** Evidence cited by the given steps, aliased P1.. for a compose call. */
export function citedEvidence(ctx: Ctx, steps: StepState[], extraIds: string[] = []): AliasMap {
  const byId = passagesById(ctx.run());
  const ids = [...new Set([...steps.flatMap((s) => s.citations), ...extraIds])];
  return aliasPassages(ids.map((id) => byId.get(id)).filter((p): p is Passage => !!p));
}

/** Passage ids behind the valid alias markers of a text. */
export function citedIds(raw: string, aliases: AliasMap): string[] {
  const ids = new Set<string>();
  renumberMarkers(raw, aliases, (p) => (ids.add(p.id), 0), () => {});
  return [...ids];
}
