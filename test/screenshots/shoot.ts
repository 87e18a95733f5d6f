/** Pictures of a page at the panel's narrowest and a wide width, in light and dark mode:
 * docs/screenshots/<name>-<width>-<light|dark>.png. */
import type { Page } from '@playwright/test';
import path from 'node:path';

export const WIDTHS = [320, 600] as const;
export const SCHEMES = ['light', 'dark'] as const;
export const OUT_DIR = path.resolve('docs/screenshots');

export async function shoot(page: Page, name: string, opts: { height?: number; fullPage?: boolean; before?: (page: Page) => Promise<void> } = {}): Promise<string[]> {
  const files: string[] = [];
  for (const width of WIDTHS) {
    for (const colorScheme of SCHEMES) {
      await page.setViewportSize({ width, height: opts.height ?? 900 });
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await opts.before?.(page);
      const settle = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await settle();
      if (opts.fullPage ?? true) {
        // The whole page in one window as tall as it (not a stitched capture): sticky parts, like
        // the question box, then sit where a reader sees them, at the bottom.
        await page.evaluate(() => window.scrollTo(0, 0));
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        await page.setViewportSize({ width, height: Math.max(opts.height ?? 900, Math.min(height, 6000)) });
        await settle();
      }
      const file = path.join(OUT_DIR, `${name}-${width}-${colorScheme}.png`);
      await page.screenshot({ path: file });
      files.push(file);
    }
  }
  await page.emulateMedia({ colorScheme: null, reducedMotion: null });
  return files;
}
