/** Chrome stops an idle extension worker after 30 s even while a fetch streams; any extension
 * API call resets that timer. While a run is live, a cheap call every 20 s keeps the worker up. */
import { browser } from 'wxt/browser';

export const KEEP_ALIVE_MS = 20_000;

export function keepAliveWhile(isLive: () => boolean, everyMs = KEEP_ALIVE_MS): () => void {
  const timer = setInterval(() => {
    if (!isLive()) clearInterval(timer);
    // The call's result does not matter, only that an extension API was used.
    else void browser.runtime.getPlatformInfo().catch(() => undefined);
  }, everyMs);
  return () => clearInterval(timer);
}
