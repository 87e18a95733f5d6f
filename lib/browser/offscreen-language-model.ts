/** Chrome's built-in model for the MV3 worker, which may lack the Prompt API: the calls go over a
 * runtime Port to the offscreen document, where `LanguageModel` exists (lib/llm/builtin-remote.ts).
 * Downloads stay on the extension pages: Chrome downloads only inside a user's click. */
import { browser } from 'wxt/browser';
import { nativeLanguageModel, setRemoteLanguageModel } from '../llm/builtin-availability';
import { LANGUAGE_MODEL_PORT, remoteLanguageModel, serveLanguageModel } from '../llm/builtin-remote';
import { ensureOffscreen } from './offscreen-document';

/** In the worker: use the offscreen document's model when the worker has none of its own. */
export function routeBuiltinModelOffscreen(): void {
  if (import.meta.env.FIREFOX || nativeLanguageModel()) return;
  setRemoteLanguageModel(
    remoteLanguageModel(async () => {
      await ensureOffscreen();
      return browser.runtime.connect({ name: LANGUAGE_MODEL_PORT });
    }),
  );
}

/** In the offscreen document: answer the worker with this document's `LanguageModel`. */
export function serveOffscreenLanguageModel(): void {
  const own = browser.runtime.getURL('/');
  browser.runtime.onConnect.addListener((port) => {
    // Only the extension's own worker and pages, never a content script in a web page.
    if (port.name !== LANGUAGE_MODEL_PORT || port.sender?.tab || !port.sender?.url?.startsWith(own)) return;
    serveLanguageModel(nativeLanguageModel(), port);
  });
}
