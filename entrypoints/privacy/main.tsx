/** PRIVACY.md as it shipped with this version, readable offline: Settings → Privacy links here,
 * so the policy shown is the one that applies to the installed extension. Our own text, rendered
 * without raw HTML; only links to web pages stay links. */
import { createRoot } from 'react-dom/client';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import '@/components/theme.css';
import './privacy.css';
import policy from '../../PRIVACY.md?raw';

const webOnly = (url: string) => (/^https?:\/\//.test(url) ? url : '');

createRoot(document.getElementById('root')!).render(
  <article className="policy">
    <Markdown
      skipHtml
      remarkPlugins={[remarkGfm]}
      urlTransform={webOnly}
      components={{
        a: ({ href, children }) =>
          href ? (
            <a href={href} target="_blank" rel="noopener noreferrer">
              {children}
            </a>
          ) : (
            <span>{children}</span>
          ),
      }}
    >
      {policy}
    </Markdown>
  </article>,
);
