/** Input limits: past these a run is refused with a clear message (and the text is kept). */
export const MAX_QUESTION_CHARS = 4_000;
export const MAX_SELECTION_CHARS = 12_000;
