import { describe, expect, it } from 'vitest';
import { privateHostKind } from './private-host';
import { skipReason } from './tabs';

describe('private hosts', () => {
  it('names this machine, private ranges and intranet names; leaves public hosts alone', () => {
    for (const h of ['localhost', 'app.localhost', '127.0.0.1', '127.8.0.1', '[::1]', '0.0.0.0']) expect(privateHostKind(h), h).toBe('loopback');
    for (const h of ['10.0.0.5', '172.16.0.1', '172.31.255.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '[fd00::1]', '[fe80::1]', '[::ffff:192.168.0.1]'])
      expect(privateHostKind(h), h).toBe('private address');
    for (const h of ['intranet', 'router.local', 'metadata.google.internal', 'nas.lan', 'printer.home.arpa', 'wiki.corp']) expect(privateHostKind(h), h).toBe('intranet name');
    for (const h of ['example.com', '8.8.8.8', '172.32.0.1', '192.169.0.1', '[2001:db8::1]', 'local.example.com']) expect(privateHostKind(h), h).toBeUndefined();
  });

  it('keeps such tabs out of the library unless the user allows private networks', () => {
    const rules = { excludedDomains: [], allowIncognito: false };
    const tab = (url: string) => ({ id: 1, url, title: 't' });
    expect(skipReason(tab('http://192.168.1.1/admin?session=x'), rules)).toBe('private network');
    expect(skipReason(tab('http://localhost:3000/'), rules)).toBe('private network');
    expect(skipReason(tab('http://intranet/wiki'), rules)).toBe('private network');
    expect(skipReason(tab('https://example.com/'), rules)).toBeUndefined();
    expect(skipReason(tab('http://192.168.1.1/admin'), { ...rules, privateNetwork: true })).toBeUndefined();
  });
});
