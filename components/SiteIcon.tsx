function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** A site's favicon from the browser's own cache (Chrome's _favicon endpoint: no request leaves
 * the machine); elsewhere the site's first letter. */
export function SiteIcon({ url }: { url: string }) {
  const site = siteOf(url);
  if (import.meta.env.BROWSER !== 'firefox') {
    // Extension pages run at the extension's origin, where Chrome serves /_favicon/.
    const src = `${location.origin}/_favicon/?pageUrl=${encodeURIComponent(url)}&size=16`;
    return <img className="site-icon" src={src} alt="" width={16} height={16} />;
  }
  return (
    <span className="site-icon letter" aria-hidden="true">
      {(site[0] ?? '?').toUpperCase()}
    </span>
  );
}

export { siteOf };
