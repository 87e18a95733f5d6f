import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { useMemo } from 'react';
import { linkKey, sanitizeMarkdown } from '@/lib/export/safe-markdown';
import type { Source } from '@/lib/core/run';
import { CitationChip } from './CitationChip';

const CITE = '#cite-';

/** Turn [1] / [1, 2] / [1][2] markers into links the renderer turns into chips. */
export function linkCitations(md: string): string {
  return md.replace(/\[(\d+(?:\s*,\s*\d+)*)\](?!\(|:)/g, (_, nums: string) =>
    nums
      .split(',')
      .map((n) => `[${n.trim()}](${CITE}${n.trim()})`)
      .join(''),
  );
}

/** Only http(s) links and our own citation anchors survive; everything else becomes inert. */
export function safeUrl(url: string): string {
  if (url.startsWith(CITE)) return url;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : '';
  } catch {
    return '';
  }
}

/** Model output rendered as GitHub-flavoured Markdown (tables, task lists, strikethrough), safely,
 * through the same sanitizer as the exports (lib/export/safe-markdown.ts): no raw HTML, no images
 * (no remote requests), links only to the run's validated sources (any other link the model wrote
 * shows its address as text), citation markers as chips only for sources that exist. */
export function SafeMarkdown({ text, sources, onCite }: { text: string; sources: Source[]; onCite?: (s: Source) => void }) {
  const allowed = useMemo(() => new Set(sources.map((s) => linkKey(s.url)).filter((k): k is string => !!k)), [sources]);
  const safe = useMemo(() => linkCitations(sanitizeMarkdown(text, allowed)), [text, allowed]);
  const components: Components = {
    img: () => null,
    a: ({ href, children }) => {
      if (href?.startsWith(CITE)) {
        const n = Number(href.slice(CITE.length));
        const source = sources.find((s) => s.n === n);
        return <CitationChip n={n} source={source} onOpen={onCite} />;
      }
      if (!href) return <span>{children}</span>;
      // The sanitizer left only source links; anything else is shown, not linked.
      const key = linkKey(href);
      if (!key || !allowed.has(key))
        return (
          <span className="model-link">
            {children} <code>{href}</code>
          </span>
        );
      return (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow">
          {children}
        </a>
      );
    },
  };
  return (
    <div className="markdown">
      <Markdown skipHtml remarkPlugins={[remarkGfm]} urlTransform={safeUrl} components={components}>
        {safe}
      </Markdown>
    </div>
  );
}
