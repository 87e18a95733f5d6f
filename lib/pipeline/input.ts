/** What a run accepts as input, checked in one place (executeRun) with one message per problem.
 * The panel reads the same limits to warn while typing. */
import type { RunError, RunMode } from '../core/run';

/** Longest input, in characters: a typed question, a selection to verify, a page's article text
 * (the worker reads at most this much of a page). */
export const INPUT_LIMITS: Record<RunMode, number> = { ask: 4_000, verify: 12_000, page: 60_000 };

export function inputProblem(mode: RunMode, raw: string): RunError | undefined {
  const text = raw.trim();
  const what = mode === 'verify' ? 'selection' : mode === 'page' ? 'page text' : 'question';
  if (!text) return { code: 'empty-input', message: mode === 'verify' ? 'Nothing was selected.' : mode === 'page' ? 'The page has no readable text to check.' : 'The question is empty.' };
  const limit = INPUT_LIMITS[mode];
  if (text.length > limit)
    return {
      code: 'too-long',
      length: text.length,
      limit,
      message: `The ${what} has ${text.length.toLocaleString('en')} characters; the limit is ${limit.toLocaleString('en')}. ${mode === 'verify' ? 'Select a shorter passage.' : mode === 'page' ? 'Select a part of it and use Verify with RAT.' : 'Shorten the question.'}`,
    };
  return undefined;
}
