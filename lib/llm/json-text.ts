import { stripThinking } from './thinking';

/** Parse JSON that may be wrapped in a code fence or surrounded by prose, after any thinking
 * block (whose braces are the model's thought, not its answer). */
export function parseJsonLoose(text: string): unknown {
  const trimmed = stripThinking(text).trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(trimmed);
    if (fenced) {
      try {
        return JSON.parse(fenced[1] ?? '');
      } catch {
        /* fall through */
      }
    }
    const start = trimmed.search(/[[{]/);
    const end = Math.max(trimmed.lastIndexOf('}'), trimmed.lastIndexOf(']'));
    if (start >= 0 && end > start) return JSON.parse(trimmed.slice(start, end + 1));
    throw new SyntaxError('no JSON object found');
  }
}

/** List model ids at the endpoint (options page and Test connection). */
