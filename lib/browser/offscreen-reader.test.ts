import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64, isOffscreenRead } from './offscreen-reader';
import { pdfPageUrl } from './open-source';

describe('handing a PDF to the offscreen document', () => {
  it('sends its bytes as base64 and gets every byte back, also past the slice size', () => {
    const bytes = new Uint8Array(100_003).map((_, i) => (i * 7919) % 256);
    const back = base64ToBytes(bytesToBase64(bytes));
    expect(back).toEqual(bytes);
    expect(isOffscreenRead({ ratifyOffscreen: 'read-pdf', base64: '', url: 'https://a.example/x.pdf' })).toBe(true);
    expect(isOffscreenRead({ ratifyOffscreen: 'other' })).toBe(false);
  });
});

it('a PDF citation opens the PDF at its page, whatever fragment the address had', () => {
  expect(pdfPageUrl('https://a.example/r.pdf', 3)).toBe('https://a.example/r.pdf#page=3');
  expect(pdfPageUrl('https://a.example/r.pdf#page=1', 4)).toBe('https://a.example/r.pdf#page=4');
});
