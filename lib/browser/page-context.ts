import { browser, type Browser } from 'wxt/browser';
import type { PageContext } from '../pipeline/types';

export interface CapturedSelection {
  text: string;
  page: PageContext;
}

/** Runs in the page: the selection as the user sees it, and the text of the blocks around it
 * (the gate uses it to resolve "he", "the company", relative dates). */
function readSelectionInPage(maxContext: number): { text: string; surrounding: string } {
  const sel = window.getSelection();
  const text = sel ? sel.toString() : '';
  let surrounding = '';
  if (sel && sel.rangeCount > 0) {
    let node: Node | null = sel.getRangeAt(0).commonAncestorContainer;
    while (node && node.nodeType !== Node.ELEMENT_NODE) node = node.parentNode;
    let el = node as HTMLElement | null;
    // Widen to the nearest block that gives some context beyond the selection itself.
    while (el && el.parentElement && (el.innerText ?? '').length < Math.min(maxContext, text.length + 400)) el = el.parentElement;
    surrounding = (el?.innerText ?? '').slice(0, maxContext);
  }
  return { text, surrounding };
}

/** The selection and its context in a tab; falls back to the menu's selectionText where the page
 * cannot be scripted (PDF viewer, browser pages, store pages). */
export async function captureSelection(tab: Browser.tabs.Tab, fallbackText = ''): Promise<CapturedSelection> {
  const page: PageContext = { url: tab.url ?? '', title: tab.title ?? '', tabId: tab.id };
  if (tab.id === undefined) return { text: fallbackText, page };
  try {
    const [res] = await browser.scripting.executeScript({ target: { tabId: tab.id }, func: readSelectionInPage, args: [2000] });
    const got = res?.result as { text: string; surrounding: string } | undefined;
    const text = got?.text.trim() ? got.text : fallbackText;
    return { text, page: { ...page, surrounding: got?.surrounding || undefined } };
  } catch {
    return { text: fallbackText, page };
  }
}
