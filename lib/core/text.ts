/** Small text helpers shared by the tabs reader, the passage cutter, the ranker and the model's
 * language check. */

/** 64-bit-ish non-cryptographic hash (two 32-bit FNV-1a lanes with different seeds), as 16 hex
 * chars. Content hashes only need to change when the text changes; speed matters more. */
export function hashText(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= a >>> 13;
  a = Math.imul(a, 0xc2b2ae35);
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** Writing systems that tell a language apart, kana before Han (Japanese also writes Han). */
export const SCRIPT_LANGS: [RegExp, string][] = [
  [/[\u3040-\u30ff]/u, 'ja'], // kana first: Japanese text also has Han characters
  [/[\uac00-\ud7af\u1100-\u11ff]/u, 'ko'],
  [/\p{Script=Han}/u, 'zh'],
  [/\p{Script=Arabic}/u, 'ar'],
  [/\p{Script=Hebrew}/u, 'he'],
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Greek}/u, 'el'],
  [/\p{Script=Thai}/u, 'th'],
  [/\p{Script=Devanagari}/u, 'hi'],
  [/\p{Script=Hangul}/u, 'ko'],
];

/** A best guess at the language of a short query from its script; Latin script gives `fallback`.
 * Good enough to pick a Wikipedia edition; not a language identifier. */
export function guessLanguage(text: string, fallback = 'en'): string {
  let best = fallback;
  let bestCount = 0;
  for (const [re, lang] of SCRIPT_LANGS) {
    const g = new RegExp(re.source, 'gu');
    const n = (text.match(g) ?? []).length;
    if (n > bestCount) {
      best = lang;
      bestCount = n;
    }
  }
  // A few Han characters inside Latin text (a name) do not make the query Chinese.
  const latin = (text.match(/\p{Script=Latin}/gu) ?? []).length;
  return bestCount > 0 && bestCount * 2 >= Math.min(latin, 8) ? best : fallback;
}

/** Collapses whitespace and trims; keeps newlines out. */
export function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Plain text from a snippet that may hold simple HTML (search APIs highlight matches with tags). */
export function stripTags(s: string): string {
  return squash(
    s
      .replace(/<[^>]*>/g, '')
      .replace(/&quot;/g, '"')
      .replace(/&#0?39;|&apos;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&nbsp;/g, ' ')
      .replace(/&amp;/g, '&'),
  );
}
