import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { contentHash, extractReadable } from './extract';
import { createNodePageReader } from './node-reader';

const doc = (html: string) => (parseHTML(html) as unknown as { document: Document }).document;

describe('readable text', () => {
  const article = `<!DOCTYPE html><html lang="en"><head><title>Marie Curie - Site</title></head><body>
    <nav>Home | About | Contact</nav>
    <article><h1>Marie Curie</h1>${'<p>Marie Curie was a physicist and chemist who conducted pioneering research on radioactivity. She was the first woman to win a Nobel Prize.</p>'.repeat(4)}
    <h2>Early life</h2><p>She was born in Warsaw in 1867, the youngest of five children, and studied in secret at the Flying University.</p></article>
    <form><input type="password" value="hunter2-secret"><input name="cc" autocomplete="cc-number" value="4111111111111111"><textarea>draft message</textarea></form>
    </body></html>`;

  it('reads the article with headings and offsets, without page chrome', () => {
    const page = extractReadable(doc(article), 'https://site.example/curie');
    expect(page.text).toContain('pioneering research on radioactivity');
    expect(page.text).not.toContain('Home | About');
    const h = page.headings.find((x) => x.text === 'Early life');
    expect(h).toBeDefined();
    expect(page.text.slice(h!.offset, h!.offset + 10)).toBe('Early life');
    expect(page.lang).toBe('en');
  });

  it('never reads form fields (passwords, card numbers, drafts)', () => {
    const short = '<html><head><title>Login</title></head><body><h1>Sign in</h1><form><label>Password <input type="password" value="hunter2-secret"></label><input autocomplete="cc-number" value="4111111111111111"><textarea>draft message</textarea></form></body></html>';
    for (const html of [article, short]) {
      const page = extractReadable(doc(html), 'https://site.example/');
      expect(page.text).not.toContain('hunter2');
      expect(page.text).not.toContain('4111');
      expect(page.text).not.toContain('draft message');
    }
    // No article in the short page: the visible text is the fallback.
    expect(extractReadable(doc(short), 'https://site.example/').text).toContain('Sign in');
  });

  it('hashes what the page shows, so a change gives a new hash', () => {
    const a = contentHash(doc('<html><head><title>T</title></head><body><p>One</p></body></html>'));
    const b = contentHash(doc('<html><head><title>T</title></head><body><p>One</p></body></html>'));
    const c = contentHash(doc('<html><head><title>T</title></head><body><p>Two</p></body></html>'));
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });

  it('the Node reader turns fetched HTML into a page', async () => {
    const page = await createNodePageReader().read(article, 'https://site.example/curie');
    expect(page.title).toContain('Marie Curie');
    expect(page.text).toContain('Warsaw');
  });
});
