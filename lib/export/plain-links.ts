/** Pasted as plain text, an address becomes a link in the receiver's mail or chat app whatever
 * Ratify did. In "Copy as text" only the run's sources may be followed, so every other address
 * the model wrote (it has read pages: it may be built to carry tab data out) is written so it
 * stays readable but no app links it: "http[:]//attacker[.]example/c", "leak@attacker[.]example". */
import { linkKey } from './safe-markdown';

/** What linkifiers pick up: scheme addresses, www., e-mail addresses, and bare host names
 * followed by a path or ending in a letters-only top-level domain. */
const ADDRESS = /\b(?:[a-z][a-z0-9+.-]*:\/\/[^\s<>"]+|www\.[^\s<>"]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:[a-z0-9-]+\.)+[a-z]{2,}(?:\/[^\s<>"]*)?)/gi;

/** Trailing punctuation belongs to the sentence, not the address. */
function trimTail(s: string): string {
  return s.replace(/[.,;:!?)\]'"”’]+$/, '');
}

export function defangAddresses(text: string, sources: Iterable<string>): string {
  const allowed = new Set([...sources].map(linkKey).filter((k): k is string => !!k));
  return text.replace(ADDRESS, (found) => {
    const address = trimTail(found);
    const tail = found.slice(address.length);
    const key = linkKey(address);
    if (key && allowed.has(key)) return found;
    if (!/:\/\/|@|^www\.|\//i.test(address) && !hostLike(address)) return found;
    return defang(address) + tail;
  });
}

/** File names are not links ("tracker.js", "README.md"); a name ending in another letters-only
 * top-level domain is. */
const FILE_ENDINGS = new Set(['js', 'mjs', 'ts', 'tsx', 'jsx', 'md', 'py', 'rb', 'rs', 'go', 'sh', 'java', 'json', 'css', 'html', 'htm', 'txt', 'pdf', 'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'csv', 'xml', 'yaml', 'yml', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'zip', 'gz', 'tar', 'exe', 'dll', 'so', 'cpp', 'hpp', 'php', 'ini', 'log', 'mp3', 'mp4', 'wav']);

function hostLike(name: string): boolean {
  const tld = /\.([a-z]{2,})$/i.exec(name)?.[1]?.toLowerCase();
  return !!tld && !FILE_ENDINGS.has(tld);
}

function defang(address: string): string {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/i.exec(address);
  if (m) return `${m[1]}[:]//${m[2]!.replace(/\./g, '[.]')}${m[3]}`;
  // No scheme: the host is what comes before the first "/", "?" or "#".
  const cut = address.search(/[/?#]/);
  const host = cut < 0 ? address : address.slice(0, cut);
  return host.replace(/\./g, '[.]') + (cut < 0 ? '' : address.slice(cut));
}
