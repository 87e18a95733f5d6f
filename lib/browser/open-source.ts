import { browser } from 'wxt/browser';

/** A URL that scrolls to `quote` with a text fragment (#:~:text=), trimmed to a few words at each
 * end so small differences in whitespace inside the passage still match. */
export function textFragmentUrl(url: string, quote?: string): string {
  if (!quote?.trim()) return url;
  const words = quote.trim().split(/\s+/);
  const enc = (s: string) => encodeURIComponent(s).replace(/-/g, '%2D');
  const fragment = words.length <= 8 ? enc(words.join(' ')) : `${enc(words.slice(0, 4).join(' '))},${enc(words.slice(-4).join(' '))}`;
  const base = url.split('#')[0];
  return `${base}#:~:text=${fragment}`;
}

/** A PDF opened at a page: `#page=N` (Chrome's viewer and pdf.js both follow it). */
export function pdfPageUrl(url: string, page: number): string {
  return `${url.split('#')[0]}#page=${page}`;
}

/** Only http(s) sources are ever opened. */
export function isWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Focus the open tab that holds a source (highlighting the passage), or open it in a new tab
 * scrolled to the passage. A PDF passage opens (or turns) the PDF to its page instead: a PDF
 * viewer cannot be scripted and does not follow text fragments. */
export async function openSource({ url, tabId, quote, page }: { url: string; tabId?: number; quote?: string; page?: number }): Promise<boolean> {
  if (!isWebUrl(url)) return false;
  if (tabId !== undefined) {
    try {
      const tab = await browser.tabs.get(tabId);
      // The page a question was asked on is cited by its address without the query string.
      const same = tab.url && (tab.url.split('#')[0] === url.split('#')[0] || tab.url.split(/[?#]/)[0] === url.split('#')[0]);
      if (same) {
        await browser.tabs.update(tabId, page !== undefined ? { active: true, url: pdfPageUrl(tab.url ?? url, page) } : { active: true });
        if (tab.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true });
        if (quote && page === undefined) {
          await browser.scripting
            .executeScript({ target: { tabId }, func: highlightInPage, args: [quote] })
            // The tab is focused either way; a page that cannot be scripted just gets no highlight.
            .catch(() => undefined);
        }
        return true;
      }
    } catch {
      /* the tab is gone: open the URL instead */
    }
  }
  await browser.tabs.create({ url: page !== undefined ? pdfPageUrl(url, page) : textFragmentUrl(url, quote) });
  return true;
}

/** Runs in the page: find the quote and select + scroll to it (the browser's own find highlight). */
function highlightInPage(quote: string): boolean {
  const find = (window as unknown as { find?: (s: string, caseSensitive?: boolean, backwards?: boolean, wrap?: boolean) => boolean }).find;
  const probe = quote.trim().split(/\s+/).slice(0, 12).join(' ');
  window.getSelection()?.removeAllRanges();
  const found = find ? find.call(window, probe, false, false, true) : false;
  if (found) {
    const sel = window.getSelection();
    const el = sel && sel.rangeCount ? sel.getRangeAt(0).startContainer.parentElement : null;
    el?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }
  return found;
}
