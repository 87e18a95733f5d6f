/** vitest's asymmetric matchers (`expect.any(Number)`, `expect.stringContaining(…)`) are typed
 * `any`, which the type-aware lint rightly refuses to spread into expected objects; the same
 * matchers, typed as what they are to the compiler: values to compare with, nothing more. */
import { expect } from 'vitest';

export const match = {
  any: (type: abstract new (...args: never[]) => unknown): unknown => expect.any(type),
  stringContaining: (s: string): unknown => expect.stringContaining(s),
  stringMatching: (r: string | RegExp): unknown => expect.stringMatching(r),
};
