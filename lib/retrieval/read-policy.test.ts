import { describe, expect, it } from 'vitest';
import { readPolicy, sameDocument } from './read-policy';

const privacy = { excludedDomains: ['bank.example'], allowIncognito: false, privateNetwork: false, tabScope: 'window' as const };
const tab = (id: number, url: string, windowId = 1) => ({ id, url, title: `Tab ${id}`, windowId });

describe('one module decides what may be read', () => {
  it('the page the user is on goes to the model only when the chosen sources include it', () => {
    expect(readPolicy({ privacy }).pageChosen(5)).toBe(true); // no choice made: the settings' defaults
    expect(readPolicy({ privacy, scope: { tabs: 'window', windowId: 1, web: true } }).pageChosen(5)).toBe(true);
    // One tab @-picked: the page is not among the sources unless its chip is there too.
    expect(readPolicy({ privacy, scope: { tabs: 'chosen', tabIds: [7], web: true } }).pageChosen(5)).toBe(false);
    expect(readPolicy({ privacy, scope: { tabs: 'chosen', tabIds: [7, 5], web: true } }).pageChosen(5)).toBe(true);
    // The chip removed: left out whatever the tabs choice.
    const off = readPolicy({ privacy, scope: { tabs: 'all', web: true, pageTabId: 5, page: false } });
    expect(off.pageChosen(5)).toBe(false);
    expect(off.chosen(tab(5, 'https://news.example/a'))).toBe(false);
    expect(off.chosen(tab(6, 'https://news.example/b'))).toBe(true);
  });

  it('the tabs choice, the privacy rules and the page being checked', () => {
    const p = readPolicy({ privacy, scope: { tabs: 'window', windowId: 1, web: false }, checked: { tabId: 3, url: 'https://www.news.example/story/#top' } });
    expect(p.web).toBe(false);
    expect(p.chosen(tab(1, 'https://a.example/', 2))).toBe(false);
    expect(p.skipReason(tab(2, 'https://online.bank.example/login'))).toBe('excluded domain');
    expect(p.skipReason(tab(4, 'http://192.168.1.1/'))).toBe('private network');
    expect(p.skipReason(tab(3, 'https://elsewhere.example/'))).toBe('selection source');
    expect(p.skipReason(tab(9, 'https://news.example/story'))).toBe('selection source');
    expect(p.isChecked({ url: 'https://news.example/story/' })).toBe(true);
    expect(p.isChecked({ url: 'https://other.example/', tabId: 3 })).toBe(true);
    expect(p.isChecked({ url: 'https://news.example/story?page=2' })).toBe(false);
  });

  it('one normaliser: fragment, trailing slash, "www." and http/https do not make another document; the query does', () => {
    expect(sameDocument('https://www.example.com/a/#x', 'http://example.com/a')).toBe(true);
    expect(sameDocument('https://example.com/a?id=1', 'https://example.com/a?id=2')).toBe(false);
    expect(sameDocument('https://example.com/a', 'https://example.org/a')).toBe(false);
  });
});
