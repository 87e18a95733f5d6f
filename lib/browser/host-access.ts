/** Access to sites: the optional host permission (`<all_urls>`), asked for at first use. Without
 * it Ratify still verifies a selection (the menu or the shortcut grants `activeTab` for that tab)
 * and searches APIs that answer extensions, but cannot read other tabs or fetch result pages. */
import { browser } from 'wxt/browser';

const ALL_SITES = { origins: ['<all_urls>'] };

/** Whether the user has granted access to sites. */
export async function hasHostAccess(): Promise<boolean> {
  return browser.permissions.contains(ALL_SITES);
}

/** Shows the browser's permission prompt. Call it synchronously from the click handler: the
 * browser refuses a request made after the user gesture has been spent (an await before it). */
export function requestHostAccess(): Promise<boolean> {
  return browser.permissions.request(ALL_SITES);
}

/** Gives the permission back (Settings → Privacy). */
export function revokeHostAccess(): Promise<boolean> {
  return browser.permissions.remove(ALL_SITES);
}

/** Calls `onChange` with the new state whenever the permission is granted or taken back, here or
 * in the browser's own extension settings. Returns the unsubscribe. */
export function watchHostAccess(onChange: (granted: boolean) => void): () => void {
  const check = () => {
    // A failed check leaves the last known state showing; the next change checks again.
    void hasHostAccess().then(onChange, (e: unknown) => console.warn('Ratify: site access state unknown', e));
  };
  browser.permissions.onAdded.addListener(check);
  browser.permissions.onRemoved.addListener(check);
  return () => {
    browser.permissions.onAdded.removeListener(check);
    browser.permissions.onRemoved.removeListener(check);
  };
}
