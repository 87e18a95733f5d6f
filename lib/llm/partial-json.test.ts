import { describe, expect, it } from 'vitest';
import { DeltaTracker, parsePartialJson } from './partial-json';

describe('parsePartialJson', () => {
  it('reads the unfinished string at the end of a streaming object', () => {
    expect(parsePartialJson('{"steps": ["Marie Curie was born', )).toEqual({ steps: ['Marie Curie was born'] });
    expect(parsePartialJson('{"revised": "She shared the 1903 Nobel", "cit')).toEqual({ revised: 'She shared the 1903 Nobel' });
  });
  it('handles escapes, including ones cut in half', () => {
    expect(parsePartialJson('{"a": "line\\nnext \\"q\\" \\u00e9')).toEqual({ a: 'line\nnext "q" é' });
    expect(parsePartialJson('{"a": "x\\u00')).toEqual({ a: 'x' });
    expect(parsePartialJson('{"a": "x\\')).toEqual({ a: 'x' });
  });
  it('keeps complete numbers and booleans, waits for cut ones', () => {
    expect(parsePartialJson('{"sufficient": true, "n": 12, "m": 3')).toEqual({ sufficient: true, n: 12 });
    expect(parsePartialJson('{"sufficient": tr')).toEqual({});
  });
  it('parses a complete document like JSON.parse and tolerates prose around it', () => {
    const doc = { a: [1, { b: 'c' }], d: null, e: false };
    expect(parsePartialJson(`Here you go: ${JSON.stringify(doc)} bye`)).toEqual(doc);
    expect(parsePartialJson('no json here')).toBeUndefined();
  });
});

describe('DeltaTracker', () => {
  it('yields only what was appended', () => {
    const t = new DeltaTracker();
    expect(t.next('Hel')).toBe('Hel');
    expect(t.next('Hello')).toBe('lo');
    expect(t.next('Hello')).toBe('');
    expect(t.next(undefined)).toBe('');
    expect(t.text).toBe('Hello');
  });
});
