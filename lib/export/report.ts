/** A fact-check report to share, as Markdown or plain text: what was checked (the page's title and
 * address, or the selection and where it came from), when, every claim with its verdict, its
 * correction and why, the corrected text of a selection, and the numbered sources with their
 * quotes. Only the run's validated sources are links (./safe-markdown.ts); the page's address is
 * shown, never linked, and without its query string. */
import { translate } from '../i18n/messages';
import { dropBareNumbers, escapeBareNumbers } from '../pipeline/citations';
import { promptUrl } from '../core/url';
import type { ClaimResult, Run, Source } from '../core/run';
import { changesText, VERDICT_INFO, VERDICTS, type Verdict } from '../core/verdicts';
import { sanitizeMarkdown } from './safe-markdown';

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();
const code = (s: string): string => `\`${s.replace(/`/g, '')}\``;
const label = (v: Verdict): string => translate('en', `verdict_${v}`);

/** "2026-11-24 14:03 UTC". */
export function reportDate(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "12 claims: 8 supported · 2 corrected · 1 refuted · 1 unverifiable". */
export function verdictSummary(claims: ClaimResult[]): string {
  const n = claims.length;
  const parts = VERDICTS.map((v) => [v, claims.filter((c) => c.verdict === v).length] as const)
    .filter(([, k]) => k > 0)
    .map(([v, k]) => translate('en', `count_${v}`, { n: k }));
  return `${n === 1 ? '1 claim' : `${n} claims`}${parts.length ? `: ${parts.join(' · ')}` : ''}`;
}

const markers = (ns: number[]): string => ns.map((n) => `[${n}]`).join('');

function corrected(run: Run): string {
  return run.corrected !== undefined ? dropBareNumbers(escapeBareNumbers(run.corrected)).trim() : '';
}

function quotes(s: Source): string[] {
  return [s.quote, ...(s.more ?? []).map((m) => m.quote)].map(oneLine).filter(Boolean);
}

export function reportMarkdown(run: Run): string {
  const page = run.input.page;
  const claims = run.claims ?? [];
  const head: string[] = [];
  if (run.mode === 'page') head.push(`# Fact-check: ${oneLine(page?.title || page?.url || 'a page')}`);
  else head.push(`**Checked:** ${oneLine(run.input.text)}`);
  const where = page?.url ? `${run.mode === 'page' ? 'Page' : 'From'}: ${page.title && run.mode !== 'page' ? `${oneLine(page.title)} · ` : ''}${code(promptUrl(page.url))}` : '';
  head.push([where, `Checked: ${reportDate(run.createdAt)} with Ratify${run.model ? ` (${run.model})` : ''}`].filter(Boolean).join('  \n'));
  head.push(`**${verdictSummary(claims)}**`);
  const list = claims.map((c, i) => {
    const fix = c.corrected && changesText(c.verdict) ? ` → **${oneLine(c.corrected)}**` : '';
    const why = c.explanation ? `\n   ${oneLine(c.explanation)}` : '';
    return `${i + 1}. ${VERDICT_INFO[c.verdict].icon} ${label(c.verdict)}: ${oneLine(c.claim)}${fix}${c.sources.length ? ` ${markers(c.sources)}` : ''}${why}`;
  });
  const parts = [...head, list.join('\n')];
  const text = run.mode === 'verify' ? corrected(run) : '';
  if (text) parts.push(`**Corrected text**\n\n${text}`);
  if (run.sources.length) parts.push('**Sources**\n\n' + run.sources.map((s) => `${s.n}. [${s.title.replace(/[[\]]/g, '') || s.url}](${s.url})${quotes(s).length ? ` — ${quotes(s).map((q) => `“${q}”`).join(' · ')}` : ''}`).join('\n'));
  return sanitizeMarkdown(parts.filter(Boolean).join('\n\n'), run.sources.map((s) => s.url)) + '\n';
}

export function reportPlainText(run: Run): string {
  const page = run.input.page;
  const claims = run.claims ?? [];
  const lines: string[] = [];
  if (run.mode === 'page') lines.push(`Fact-check: ${oneLine(page?.title || page?.url || 'a page')}`);
  else lines.push(`Checked: ${oneLine(run.input.text)}`);
  if (page?.url) lines.push(`${run.mode === 'page' ? 'Page' : 'From'}: ${page.title && run.mode !== 'page' ? `${oneLine(page.title)} · ` : ''}${promptUrl(page.url)}`);
  lines.push(`Checked: ${reportDate(run.createdAt)} with Ratify${run.model ? ` (${run.model})` : ''}`, '', verdictSummary(claims), '');
  claims.forEach((c, i) => {
    lines.push(`${i + 1}. [${label(c.verdict)}] ${oneLine(c.claim)}${c.sources.length ? ` ${markers(c.sources)}` : ''}`);
    if (c.corrected && changesText(c.verdict)) lines.push(`   → ${oneLine(c.corrected)}`);
    if (c.explanation) lines.push(`   ${oneLine(c.explanation)}`);
  });
  const text = run.mode === 'verify' ? corrected(run) : '';
  if (text) lines.push('', 'Corrected text:', text);
  if (run.sources.length) {
    lines.push('', 'Sources:');
    for (const s of run.sources) {
      lines.push(`[${s.n}] ${s.title || s.url} — ${s.url}`);
      for (const q of quotes(s)) lines.push(`    “${q}”`);
    }
  }
  return lines.join('\n') + '\n';
}
