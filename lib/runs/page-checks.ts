/** Checks are remembered per page: a page check stores, with each claim, a hash of the page
 * sentence it came from. On a later visit the page's visible text is read again and cut into
 * sentences the same way: the panel offers the earlier check ("Checked 3 days ago: 2 corrected"),
 * and its marks are drawn again only on the sentences the page still shows unchanged. */
import type { EarlierCheck } from './messages';
import { sentenceHashes } from '../pipeline/sentence-hash';
import type { ClaimResult, Run } from '../core/run';
import { VERDICTS, type Verdict } from '../core/verdicts';

/** Which claims of `run` the page text still holds, sentence for sentence. */
export function unchangedIn(pageText: string): (c: ClaimResult) => boolean {
  const hashes = sentenceHashes(pageText);
  return (c) => !!c.sentenceHash && hashes.has(c.sentenceHash);
}

export function earlierCheck(run: Run, pageText: string): EarlierCheck {
  const claims = run.claims ?? [];
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const c of claims) counts[c.verdict]++;
  const keep = unchangedIn(pageText);
  return { runId: run.id, checkedAt: run.createdAt, counts, total: claims.length, unchanged: claims.filter(keep).length };
}
