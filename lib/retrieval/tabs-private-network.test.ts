import { describe, expect, it } from 'vitest';
import { skipReason } from './tabs';

describe('tabs on this machine or a private network', () => {
  const rules = { excludedDomains: [], allowIncognito: false };
  const tab = (url: string) => ({ id: 1, url, title: 't' });

  it('are not read by default: loopback, private ranges, link-local, intranet names', () => {
    for (const url of ['http://localhost:3000/', 'http://127.0.0.1:8080/', 'http://[::1]/', 'http://192.168.1.1/admin?session=x', 'http://10.0.0.5/', 'http://172.16.0.1/', 'http://169.254.169.254/latest/', 'http://[fd00::1]/', 'http://intranet/wiki', 'http://printer.local/', 'http://metadata.google.internal/'])
      expect(skipReason(tab(url), rules), url).toBe('private network');
    for (const url of ['https://example.com/', 'http://8.8.8.8/', 'http://172.32.0.1/']) expect(skipReason(tab(url), rules), url).toBeUndefined();
  });

  it('are read when the user allows private networks', () => {
    expect(skipReason(tab('http://192.168.1.1/admin'), { ...rules, privateNetwork: true })).toBeUndefined();
    expect(skipReason(tab('http://localhost:3000/'), { ...rules, privateNetwork: true })).toBeUndefined();
  });
});
