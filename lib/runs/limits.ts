import { MAX_INPUT_CHARS } from '../pipeline/run';

/** Input limits: past these a run is refused with a clear message (and the text is kept).
 * A selection may be as long as the pipeline accepts; a typed question is held shorter. */
export const MAX_QUESTION_CHARS = 4_000;
export const MAX_SELECTION_CHARS = MAX_INPUT_CHARS;
