/** Zod building blocks shared by the settings schema and the pieces that declare their own
 * settings (search providers). Problem codes are what the options form translates. */
import { z } from 'zod';

/** Codes a settings problem can carry (lib/i18n has a message for each). */
export type ProblemCode = 'required' | 'url-invalid' | 'url-scheme' | 'url-insecure' | 'range';

/** A URL field: empty, or an http(s) URL ({lang} stands for a language code). */
export const urlField = z.string().trim().superRefine((value, ctx) => {
  if (!value) return;
  let url: URL;
  try {
    url = new URL(value.replace('{lang}', 'en'));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'url-invalid' satisfies ProblemCode });
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: 'url-scheme' satisfies ProblemCode });
});

/** True when a key sent to this URL would cross the network in clear text: http to anything but
 * this machine (localhost, 127.0.0.0/8, [::1]). Local servers (Ollama, LM Studio) stay allowed. */
export function sendsKeyInClear(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value.replace('{lang}', 'en'));
  } catch {
    return false; // an invalid URL has its own problem code
  }
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.toLowerCase();
  return !(host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]');
}

/** An integer or number in [min, max]; the options form reads the range back from the schema. */
export function intIn(min: number, max: number) {
  return z.number().int({ message: 'range' }).min(min, { message: 'range' }).max(max, { message: 'range' });
}
export function numberIn(min: number, max: number) {
  return z.number({ message: 'range' }).min(min, { message: 'range' }).max(max, { message: 'range' });
}

/** The bounds of a number schema built with intIn/numberIn (undefined if unbounded). */
export function rangeOf(schema: z.ZodType): { min?: number; max?: number; step?: number } {
  let s: z.ZodType = schema;
  // Unwrap .default()/.catch() wrappers to reach the number.
  while (s instanceof z.ZodDefault || s instanceof z.ZodCatch || s instanceof z.ZodOptional) s = s.unwrap() as z.ZodType;
  if (!(s instanceof z.ZodNumber)) return {};
  return { min: s.minValue ?? undefined, max: s.maxValue ?? undefined, step: s.format === 'safeint' ? 1 : undefined };
}
