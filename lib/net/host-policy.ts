/** Which hosts a page found on the web may make Ratify fetch. Search results and the redirects of
 * result pages are attacker-chosen URLs; fetched from the extension (which Chromium's
 * private-network protection does not cover), they could reach the user's router, a cloud
 * metadata service or an intranet wiki and hand its text to the model. So a fetched page must be
 * on a public host: no loopback, private, link-local, CGNAT, unique-local or otherwise special
 * address, and no name that only resolves inside a network (single labels, .local, .internal…).
 *
 * Addresses are judged after the WHATWG URL parser has normalised them, which turns every IPv4
 * spelling browsers accept (decimal 2130706433, octal 0177.0.0.1, hex 0x7f.1, short 127.1) into
 * dotted quads and compresses IPv6, so the checks below see one form per address.
 *
 * Names are judged as written: an extension cannot resolve DNS itself, so a public name whose
 * record points at a private address (DNS rebinding) is out of reach here; SECURITY.md says what
 * limits it. */

/** Name suffixes that only resolve inside a network or on this machine (RFC 6761, 6762, 8375,
 * ICANN's .internal reservation) and common intranet suffixes. */
const PRIVATE_SUFFIXES = ['localhost', 'local', 'internal', 'intranet', 'lan', 'home', 'corp', 'private', 'home.arpa', 'localdomain', 'test', 'invalid', 'example', 'onion'];

/** IPv4 ranges that are not the public internet (RFC 6890 special-purpose registry). */
const V4_BLOCKS: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT (shared address space)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

function v4ToInt(ip: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return parts.reduce((acc, p) => acc * 256 + p, 0);
}

function privateV4(n: number): boolean {
  return V4_BLOCKS.some(([base, bits]) => {
    const b = v4ToInt(base) as number;
    const size = 2 ** (32 - bits);
    return n >= b && n < b + size;
  });
}

/** The 8 groups of an IPv6 address (already compressed by the URL parser; may end in a dotted
 * quad, which the parser rewrites, but accept it anyway). */
function v6Groups(ip: string): number[] | undefined {
  let s = ip.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const n = v4ToInt(dotted[1] as string);
    if (n === undefined) return undefined;
    s = s.slice(0, -dotted[1]!.length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array<string>(Math.max(0, fill)).fill('0'), ...tail].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** IPv6 ranges that are never public, as [mask, value] on the first group. */
const PRIVATE_V6_PREFIXES: readonly (readonly [mask: number, value: number])[] = [
  [0xfe00, 0xfc00], // unique local fc00::/7
  [0xffc0, 0xfe80], // link-local fe80::/10
  [0xffc0, 0xfec0], // old site-local fec0::/10
  [0xff00, 0xff00], // multicast ff00::/8
];

const allZero = (groups: number[]): boolean => groups.every((x) => x === 0);

/** The IPv4 address that an IPv6 address carries, to be judged as such: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002::/16). */
function embeddedV4(g: number[]): number | undefined {
  const [a = 0, b = 0, c = 0, , , f = 0, hi = 0, lo = 0] = g;
  const last32 = (hi * 65536 + lo) >>> 0;
  if (allZero(g.slice(0, 5)) && (f === 0xffff || f === 0)) return last32;
  if (a === 0x64 && b === 0xff9b && allZero(g.slice(2, 6))) return last32;
  if (a === 0x2002) return (b * 65536 + c) >>> 0;
  return undefined;
}

function privateV6(ip: string): boolean {
  const g = v6Groups(ip);
  if (!g) return true; // unparseable: refuse rather than guess
  const [a = 0, b = 0] = g;
  if (allZero(g.slice(0, 7)) && (g[7] ?? 0) <= 1) return true; // :: and ::1
  const v4 = embeddedV4(g);
  if (v4 !== undefined) return privateV4(v4);
  if (a === 0x2001 && b === 0x0db8) return true; // documentation 2001:db8::/32
  return PRIVATE_V6_PREFIXES.some(([mask, value]) => (a & mask) === value);
}

/** Why a hostname (as `new URL(u).hostname` gives it) is not a public web host, or undefined. */
export function privateHostReason(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (!host) return 'no host';
  if (host.startsWith('[') || host.includes(':')) {
    return privateV6(host.replace(/^\[|\]$/g, '')) ? 'a private or local IPv6 address' : undefined;
  }
  const n = v4ToInt(host);
  if (n !== undefined) return privateV4(n) ? 'a private or local IPv4 address' : undefined;
  // A name made only of digits and dots that is not a valid address is not a web host either.
  if (/^[\d.]+$/.test(host)) return 'not a valid address';
  if (!host.includes('.')) return 'a single-label (intranet) name';
  const suffix = PRIVATE_SUFFIXES.find((s) => host === s || host.endsWith(`.${s}`));
  if (suffix) return `a .${suffix} name (local network)`;
  return undefined;
}

/** Why `url` may not be fetched as a web page, or undefined: only http(s) URLs on public hosts
 * (any host with `privateNetwork`, the user's choice), without credentials in them. */
export function pageUrlProblem(url: string, o: { privateNetwork?: boolean } = {}): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'not a valid address';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `not a web address (${u.protocol})`;
  if (u.username || u.password) return 'credentials in the address';
  const why = o.privateNetwork ? undefined : privateHostReason(u.hostname);
  return why ? `${u.hostname} is ${why}` : undefined;
}
