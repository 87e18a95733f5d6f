import { translate } from '../i18n/messages';
import { dropBareNumbers, escapeBareNumbers } from '../pipeline/citations';
import type { Run, Source } from '../core/run';
import { changesText } from '../core/verdicts';
import { reportMarkdown, reportPlainText } from './report';
import { sanitizeMarkdown } from './safe-markdown';
import { defangAddresses } from './plain-links';
import { promptUrl } from '../core/url';

/** Everything exported passes the panel's sanitizer: links only to the run's sources. */
const clean = (run: Run, md: string): string => sanitizeMarkdown(md, run.sources.map((s) => s.url));

/** The text a run's export is about: the answer (ask) or the corrected passage (verify), without
 * bracketed numbers that are not its sources (a page's footnotes, a model's stray "[7]"). The
 * corrected passage carries no source markers, so every number in it is foreign. */
function body(run: Run): string {
  if (run.mode === 'verify') return run.corrected !== undefined ? dropBareNumbers(escapeBareNumbers(run.corrected)) : dropBareNumbers(run.answer ?? '');
  return dropBareNumbers(run.answer ?? run.corrected ?? '');
}


function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Markdown: the answer with its [n] markers, then a numbered source list with URLs and quotes. A
 * fact-check (a selection or a page) is its report (./report.ts). */
export function toMarkdown(run: Run): string {
  if (run.mode !== 'ask' && run.claims) return reportMarkdown(run);
  const parts: string[] = [];
  parts.push(run.mode === 'verify' ? `**Checked:** ${oneLine(run.input.text)}` : `**Q:** ${oneLine(run.input.text)}`);
  parts.push(body(run).trim());
  if (run.claims?.length) {
    parts.push(
      run.claims
        .map((c) => `- ${translate('en', `verdict_${c.verdict}`)}: ${oneLine(c.claim)}${c.corrected && changesText(c.verdict) ? ` → ${oneLine(c.corrected)}` : ''}${c.sources.length ? ` ${c.sources.map((n) => `[${n}]`).join('')}` : ''}`)
        .join('\n'),
    );
  }
  if (run.sources.length) parts.push('**Sources**\n\n' + run.sources.map(sourceMarkdown).join('\n'));
  return clean(run, parts.filter(Boolean).join('\n\n')) + '\n';
}

function sourceMarkdown(s: Source): string {
  const title = s.title.replace(/[[\]]/g, '');
  const quotes = [s.quote, ...(s.more ?? []).map((m) => m.quote)].map(oneLine).filter(Boolean);
  return `${s.n}. [${title || s.url}](${s.url})${quotes.length ? ` — ${quotes.map((q) => `“${q}”`).join(' · ')}` : ''}`;
}

/** Plain text: the question, then the answer without Markdown syntax; citation markers kept as [n]
 * with the sources listed below. A fact-check is its report (./report.ts). */
export function toPlainText(run: Run): string {
  // A fact-check is its report; only its sources and the page checked stay followable addresses.
  if (run.mode !== 'ask' && run.claims) return defangAddresses(reportPlainText(run), [...run.sources.map((s) => s.url), ...(run.input.page?.url ? [run.input.page.url, promptUrl(run.input.page.url)] : [])]);
  const text = defangAddresses(stripMarkdown(clean(run, body(run).trim())), run.sources.map((s) => s.url));
  const lines = [`Q: ${oneLine(run.input.text)}`, '', text];
  if (run.sources.length) {
    lines.push('', 'Sources:');
    for (const s of run.sources) lines.push(`[${s.n}] ${s.title || s.url} — ${s.url}`);
  }
  return lines.join('\n') + '\n';
}

/** Remove the Markdown a model typically writes (emphasis, headings, links, code fences). */
export function stripMarkdown(md: string): string {
  return md
    .replace(/```[a-z]*\n?([\s\S]*?)```/gi, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\((https?:[^)]+)\)/g, '$1 ($2)')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^*\w])\*(?!\s)([^*\n]+?)\*(?!\w)/g, '$1$2')
    .replace(/(^|\W)_(?!\s)([^_\n]+?)_(?!\w)/g, '$1$2')
    .replace(/^>\s?/gm, '')
    .replace(/^\s*[-*+]\s+/gm, '• ');
}

/** A whole thread: each finished question with its answer and sources, in order. */
export function threadToMarkdown(runs: Run[]): string {
  return runs.filter((r) => r.answerFinal && body(r).trim()).map(toMarkdown).join('\n---\n\n');
}

export function threadToPlainText(runs: Run[]): string {
  // Each run's text starts with what was asked or checked.
  return runs
    .filter((r) => r.answerFinal && body(r).trim())
    .map(toPlainText)
    .join('\n');
}
