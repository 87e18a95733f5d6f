/**
 * Timings taken inside the side panel page, so Playwright's round trips are not part of them:
 * the page's own clock (performance.now(), whose zero is the navigation start) and a
 * MutationObserver that notices the moment React commits the awaited content; the time is taken
 * at the next animation frame after that, i.e. when the content can first be painted.
 *
 * The functions sent into the page declare no named inner functions (`const f = () => …`): tsx
 * (esbuild keepNames) wraps those in a `__name()` helper that does not exist in the page.
 */
import type { BrowserContext, Page } from '@playwright/test';

const PROBE = '__ratifyFirstRender';

/** From now on every page of `context` records, on its window, when the ask box first exists:
 * `{ domMs, frameMs }` since navigation start. Runs before any script of the page. */
export async function installFirstRenderProbe(context: BrowserContext): Promise<void> {
  await context.addInitScript((key: string) => {
    const w = window as unknown as Record<string, unknown>;
    const obs = new MutationObserver(() => {
      if (!document.querySelector('#ask-input')) return;
      obs.disconnect();
      const domMs = performance.now();
      requestAnimationFrame(() => {
        w[key] = { domMs, frameMs: performance.now() };
      });
    });
    obs.observe(document, { childList: true, subtree: true });
  }, PROBE);
}

/** What the probe recorded on `page` (waits for it). */
export async function firstRender(page: Page): Promise<{ domMs: number; frameMs: number }> {
  const handle = await page.waitForFunction((key: string) => (window as unknown as Record<string, unknown>)[key], PROBE, { timeout: 15_000 });
  return (await handle.jsonValue()) as { domMs: number; frameMs: number };
}

/** Clicks the History tab and resolves with the ms until the list has items (at the next frame). */
export function timeHistoryOpen(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const tab = [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((b) => b.getAttribute('aria-selected') === 'false');
        if (!tab) return reject(new Error('no History tab to click'));
        const t0 = performance.now();
        const obs = new MutationObserver(() => {
          if (document.querySelector('.history-list li') === null) return;
          obs.disconnect();
          requestAnimationFrame(() => resolve(performance.now() - t0));
        });
        obs.observe(document.body, { childList: true, subtree: true });
        tab.click();
      }),
  );
}

/** Types `query` into the history search box the way a user's input event arrives, and resolves
 * with the ms until the list shows exactly `expected` items (at the next frame). */
export function timeSearch(page: Page, query: string, expected: number): Promise<number> {
  return page.evaluate(
    ({ query, expected }) =>
      new Promise<number>((resolve, reject) => {
        const box = document.querySelector<HTMLInputElement>('input[type="search"]');
        if (!box) return reject(new Error('no history search box'));
        const t0 = performance.now();
        const timer = setTimeout(() => reject(new Error(`list never showed ${expected} items (shows ${document.querySelectorAll('.history-list li').length})`)), 10_000);
        const obs = new MutationObserver(() => {
          if (document.querySelectorAll('.history-list li').length !== expected) return;
          obs.disconnect();
          clearTimeout(timer);
          requestAnimationFrame(() => resolve(performance.now() - t0));
        });
        obs.observe(document.body, { childList: true, subtree: true });
        // React tracks the value through the native setter; setting .value directly is ignored.
        Reflect.set(HTMLInputElement.prototype, 'value', query, box);
        box.dispatchEvent(new Event('input', { bubbles: true }));
      }),
    { query, expected },
  );
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
