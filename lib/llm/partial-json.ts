/** Best-effort parse of a JSON document that is still streaming in.
 *
 * Structured calls stream JSON, but the user should see readable text (the draft's steps, a
 * revision, the answer) as soon as the model writes it, not when the object closes. This parser
 * returns whatever is complete so far plus the unfinished string at the end, so callers can diff
 * one string field between chunks. It never throws; unparseable prefixes give `undefined`. */

import { stripThinking } from './thinking';

type Frame = { kind: 'obj'; value: Record<string, unknown>; key?: string } | { kind: 'arr'; value: unknown[] };

export function parsePartialJson(raw: string): unknown {
  // Streaming starts after the thinking: a brace inside <think> is not the object.
  const text = stripThinking(raw);
  const start = text.search(/[[{]/);
  if (start < 0) return undefined;
  let root: unknown;
  const stack: Frame[] = [];
  let i = start;

  const put = (v: unknown) => {
    const top = stack[stack.length - 1];
    if (!top) {
      root = v;
      return;
    }
    if (top.kind === 'arr') top.value.push(v);
    else if (top.key !== undefined) {
      top.value[top.key] = v;
      top.key = undefined;
    }
  };

  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '{' || c === '[') {
      const v: Record<string, unknown> | unknown[] = c === '{' ? {} : [];
      put(v);
      stack.push(c === '{' ? { kind: 'obj', value: v as Record<string, unknown> } : { kind: 'arr', value: v as unknown[] });
      i++;
    } else if (c === '}' || c === ']') {
      stack.pop();
      i++;
      if (!stack.length) break;
    } else if (c === '"') {
      const { value, end, complete } = readString(text, i + 1);
      const top = stack[stack.length - 1];
      const isKey = top?.kind === 'obj' && top.key === undefined && nextNonSpace(text, end) === ':';
      if (top?.kind === 'obj' && top.key === undefined && (isKey || !complete)) {
        // A key (or a key still being written): remember it, no value yet.
        if (complete) top.key = value;
        else break;
      } else {
        put(value);
      }
      if (!complete) break;
      i = end;
    } else if (c === '-' || (c >= '0' && c <= '9') || c === 't' || c === 'f' || c === 'n') {
      const m = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
      // A literal cut off at the end of the buffer is not trusted yet.
      if (!m || i + m[0].length >= text.length) break;
      put(JSON.parse(m[0]));
      i += m[0].length;
    } else {
      i++;
    }
  }
  return root;
}

function nextNonSpace(text: string, from: number): string | undefined {
  for (let j = from; j < text.length; j++) if (!/\s/.test(text.charAt(j))) return text.charAt(j);
  return undefined;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };

function readString(text: string, from: number): { value: string; end: number; complete: boolean } {
  let out = '';
  let j = from;
  while (j < text.length) {
    const c = text[j];
    if (c === '"') return { value: out, end: j + 1, complete: true };
    if (c === '\\') {
      const e = text[j + 1];
      if (e === undefined) break;
      if (e === 'u') {
        const hex = text.slice(j + 2, j + 6);
        if (hex.length < 4) break; // escape still arriving
        out += String.fromCharCode(parseInt(hex, 16));
        j += 6;
        continue;
      }
      out += ESCAPES[e] ?? e;
      j += 2;
      continue;
    }
    out += c;
    j++;
  }
  return { value: out, end: j, complete: false };
}

/** Tracks one string extracted from a growing JSON text and yields only what was appended. */
export class DeltaTracker {
  private sent = '';
  /** Returns the new suffix, or '' when nothing new (or when the text was rewritten, which a
   * streaming model does not do; we then keep what was already shown). */
  next(current: string | undefined): string {
    if (!current || current.length <= this.sent.length || !current.startsWith(this.sent)) return '';
    const d = current.slice(this.sent.length);
    this.sent = current;
    return d;
  }
  get text(): string {
    return this.sent;
  }
}
