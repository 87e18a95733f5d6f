/** Hosts on this machine or a private network, judged by name (no DNS): loopback, RFC 1918,
 * link-local, CGNAT, unique-local and link-local IPv6, `.local`/`.internal`/`.lan`/`.home.arpa`
 * and single-label intranet names. Tabs on such hosts (router pages, admin consoles, dev servers,
 * intranet wikis) are not read unless the user allows it in the privacy settings. */

function ipv4(host: string): number[] | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  const n = parts.map(Number);
  return n.every((x) => x <= 255) ? n : undefined;
}

function privateIpv4([a = 0, b = 0]: number[]): boolean {
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
}

/** Why a host is private ("loopback", "private address", "intranet name"), or undefined. */
export function privateHostKind(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (!host) return undefined;
  if (host.startsWith('[') || host.includes(':')) {
    const v6 = host.replace(/^\[|\]$/g, '');
    if (v6 === '::1' || v6 === '::') return 'loopback';
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
    if (mapped) {
      const n = ipv4(mapped[1] ?? '');
      return n && privateIpv4(n) ? 'private address' : undefined;
    }
    return /^f[cd]|^fe[89ab]/.test(v6) ? 'private address' : undefined;
  }
  const n = ipv4(host);
  if (n) return privateIpv4(n) ? (n[0] === 127 || n[0] === 0 ? 'loopback' : 'private address') : undefined;
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (/\.(local|internal|lan|intranet|corp|home\.arpa)$/.test(host)) return 'intranet name';
  if (!host.includes('.')) return 'intranet name';
  return undefined;
}

export const isPrivateHost = (hostname: string): boolean => privateHostKind(hostname) !== undefined;
