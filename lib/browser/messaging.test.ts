/** The panel's requests to the worker over runtime messaging (WXT's fakeBrowser carries them as
 * the browser does: the worker's listener answers through sendResponse), and which senders the
 * worker treats as the extension's own pages. */
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Browser } from 'wxt/browser';
import { fromExtensionPage, request, RequestFailed } from './messaging';

/** A worker listener shaped like entrypoints/background.ts's: it answers asynchronously. */
function workerAnswers(reply: (msg: unknown) => unknown): unknown[] {
  const seen: unknown[] = [];
  fakeBrowser.runtime.onMessage.addListener((msg: unknown, _sender: unknown, sendResponse: (r: unknown) => void) => {
    seen.push(msg);
    void Promise.resolve(reply(msg)).then(sendResponse);
    return true;
  });
  return seen;
}

describe('request', () => {
  it('sends the typed request and resolves with the worker’s value', async () => {
    const seen = workerAnswers(() => ({ ok: true, value: true }));
    await expect(request('run/cancel', { id: 'r1' })).resolves.toBe(true);
    expect(seen).toEqual([{ type: 'run/cancel', id: 'r1' }]);
  });

  it('rejects with the worker’s RunError when it refuses', async () => {
    workerAnswers(() => ({ ok: false, error: { code: 'input', message: 'The selection is too long.' } }));
    const err = await request('run/retry', { id: 'r1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestFailed);
    expect((err as RequestFailed).error).toEqual({ code: 'input', message: 'The selection is too long.' });
  });

  it('says the worker did not answer when no reply comes back', async () => {
    fakeBrowser.runtime.onMessage.addListener(() => undefined);
    await expect(request('run/cancel', { id: 'r1' })).rejects.toThrow('The extension\'s worker did not answer. Reload the extension.');
  });
});

describe('fromExtensionPage', () => {
  const own = fakeBrowser.runtime.getURL('/sidepanel.html');
  const sender = (s: Partial<Browser.runtime.MessageSender>): Browser.runtime.MessageSender => ({ id: fakeBrowser.runtime.id, ...s });

  it('accepts the extension’s own pages only', () => {
    expect(fromExtensionPage(sender({ url: own }))).toBe(true);
    expect(fromExtensionPage(sender({ url: fakeBrowser.runtime.getURL('/options.html') }))).toBe(true);
  });

  it('refuses a content script in a web page (same id, the page’s URL), another extension, and a sender without URL', () => {
    expect(fromExtensionPage(sender({ url: 'https://example.org/article', tab: { id: 3 } as Browser.tabs.Tab }))).toBe(false);
    expect(fromExtensionPage(sender({ id: 'another-extension', url: own }))).toBe(false);
    expect(fromExtensionPage(sender({}))).toBe(false);
    expect(fromExtensionPage(undefined)).toBe(false);
  });
});
