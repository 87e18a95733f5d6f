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
  return new PartialParser(text).parse(start);
}

/** One pass over a (possibly unfinished) JSON text: the containers open so far on a stack, each
 * complete value put into the one on top. */
class PartialParser {
  private root: unknown;
  private readonly stack: Frame[] = [];

  constructor(private readonly text: string) {}

  parse(start: number): unknown {
    let i: number | undefined = start;
    while (i !== undefined && i < this.text.length) i = this.step(i);
    return this.root;
  }

  /** Reads what starts at `i`: the position after it, or undefined where the text stops (the
   * root has closed, or what follows is not complete yet). */
  private step(i: number): number | undefined {
    const c = this.text.charAt(i);
    if (c === '{' || c === '[') return this.open(c, i);
    if (c === '}' || c === ']') {
      this.stack.pop();
      return this.stack.length ? i + 1 : undefined;
    }
    if (c === '"') return this.string(i);
    if (c === '-' || (c >= '0' && c <= '9') || c === 't' || c === 'f' || c === 'n') return this.literal(i);
    return i + 1;
  }

  private open(c: '{' | '[', i: number): number {
    const frame: Frame = c === '{' ? { kind: 'obj', value: {} } : { kind: 'arr', value: [] };
    this.put(frame.value);
    this.stack.push(frame);
    return i + 1;
  }

  /** A string: a key of the object on top, or a value (an unfinished value is kept as far as it
   * has come; an unfinished key is not). */
  private string(i: number): number | undefined {
    const { value, end, complete } = readString(this.text, i + 1);
    const top = this.stack[this.stack.length - 1];
    if (top?.kind === 'obj' && top.key === undefined && (!complete || nextNonSpace(this.text, end) === ':')) {
      // A key (or a key still being written): remember it, no value yet.
      if (!complete) return undefined;
      top.key = value;
    } else {
      this.put(value);
    }
    return complete ? end : undefined;
  }

  private literal(i: number): number | undefined {
    const m = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.text.slice(i));
    // A literal cut off at the end of the buffer is not trusted yet.
    if (!m || i + m[0].length >= this.text.length) return undefined;
    this.put(JSON.parse(m[0]));
    return i + m[0].length;
  }

  private put(v: unknown): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      this.root = v;
      return;
    }
    if (top.kind === 'arr') top.value.push(v);
    else if (top.key !== undefined) {
      top.value[top.key] = v;
      top.key = undefined;
    }
  }
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
