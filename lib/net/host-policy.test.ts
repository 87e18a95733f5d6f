import { describe, expect, it } from 'vitest';
import { pageUrlProblem, privateHostReason } from './host-policy';

const host = (u: string) => new URL(u).hostname;

describe('privateHostReason', () => {
  it.each(['http://example.com/', 'https://en.wikipedia.org/wiki/X', 'http://8.8.8.8/', 'http://100.63.255.255/', 'http://100.128.0.1/', 'http://172.32.0.1/', 'http://172.15.255.255/', 'http://192.169.0.1/', 'http://[2606:4700:4700::1111]/', 'http://[2001:4860::8888]/', 'http://[::ffff:8.8.8.8]/', 'http://[64:ff9b::808:808]/', 'http://[2002:808:808::]/', 'http://xn--bcher-kva.example.com/'])(
    'lets a public host through: %s',
    (u) => expect(privateHostReason(host(u))).toBeUndefined(),
  );

  it.each([
    'http://127.0.0.1/', 'http://2130706433/', 'http://0x7f.0.0.1/', 'http://017700000001/', 'http://127.1/', 'http://0/', 'http://10.1.2.3/', 'http://172.31.255.255/', 'http://192.168.0.1/',
    'http://169.254.169.254/', 'http://100.64.0.1/', 'http://100.127.255.255/', 'http://224.0.0.1/', 'http://255.255.255.255/', 'http://[::]/', 'http://[::1]/', 'http://[fc00::1]/', 'http://[fdff::1]/',
    'http://[fe80::1%25eth0]/', 'http://[::ffff:10.0.0.1]/', 'http://[::ffff:169.254.169.254]/', 'http://[64:ff9b::a9fe:a9fe]/', 'http://[2002:7f00:1::]/', 'http://localhost/', 'http://LOCALHOST./', 'http://foo.localhost/',
    'http://router.local/', 'http://metadata.google.internal/', 'http://intranet/', 'http://wiki.corp/', 'http://nas.home.arpa/',
  ])('refuses %s', (u) => {
    // A URL the parser itself rejects (a zone id) is refused as "not a valid address".
    expect(pageUrlProblem(u)).toBeDefined();
  });

  it('refuses non-web schemes and credentials in the address', () => {
    expect(pageUrlProblem('file:///etc/passwd')).toMatch(/not a web address/);
    expect(pageUrlProblem('https://user:pw@example.com/')).toMatch(/credentials/);
    expect(pageUrlProblem('https://example.com/ok')).toBeUndefined();
  });
});
