import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig } from 'wxt';
import { BUNDLE_PATCHES, PDFJS_PATCHES, applyPatches, vendorPatches } from './tools/build/vendor-patches';

const require = createRequire(import.meta.url);
/** Which vendor patches the production build applied (all must be: see build:done). */
const usedPatches = new Set<string>();

// Host access is needed for: reading open tabs (scripting), calling the user's LLM endpoint and
// search providers from the worker without CORS headers, and fetching result pages.
//
// Firefox gets Manifest V2 (WXT's default for Firefox: .output/firefox-mv2). Firefox's MV3 has no
// persistent background: its event page is suspended 30 s after the last extension *event*, even
// while a fetch is streaming, and extension API calls do not reset that timer (so the keep-alive
// that holds Chrome's worker up, lib/browser/keep-alive.ts, does nothing there). A gate or revise
// call to a slow local model routinely takes longer than that; the MV3 build then restarted each
// run from its checkpoint forever (measured: test/e2e-firefox, idle timeout lowered). MV2's
// persistent background page has a DOM (no offscreen document needed), and sidebar_action,
// contextMenus, scripting (Firefox 102+) and storage work as in MV3.
// A backstop for the extension's own pages (panel, options, offscreen document): even if a model's
// Markdown or a page's text got past the renderer, no remote script, image, frame, plugin or form
// target could load. Images only from the extension itself (Chrome's local favicon cache is
// /_favicon/ on the extension's origin) and data: URLs. connect-src stays open: the model endpoint
// and search providers are whatever the user configures.
const EXTENSION_PAGES_CSP = [
  "script-src 'self' 'wasm-unsafe-eval'",
  "object-src 'none'",
  "img-src 'self' data: blob:",
  "media-src 'none'",
  "frame-src 'none'",
  "child-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');

const TOOLBAR_ICONS = { 16: 'icon/16.png', 32: 'icon/32.png' };

export default defineConfig({
  modules: ['@wxt-dev/module-react'],
  zip: {
    // The sources package addons.mozilla.org asks for: what building the Firefox package reads
    // (store/amo.md says how), not the tests, benchmarks or fixtures. npm test rebuilds the
    // package from it and compares (test/packages/reproducible-build.spec.ts).
    includeSources: [
      'package.json',
      'package-lock.json',
      'wxt.config.ts',
      'tsconfig.json',
      'README.md',
      'PRIVACY.md',
      'CHANGELOG.md',
      'store/amo.md',
      'entrypoints/**',
      'components/**',
      'lib/**',
      'public/**',
      'tools/build/**',
    ],
  },
  vite: () => ({
    plugins: [vendorPatches(usedPatches)],
    resolve: {
      // micromark decodes entities like &amp; through an element's innerHTML in its "browser"
      // build; its plain build looks them up in a table (character-entities) and never touches
      // the DOM.
      alias: [{ find: /^decode-named-character-reference$/, replacement: require.resolve('decode-named-character-reference') }],
    },
  }),
  hooks: {
    // pdf.js reads PDFs in the offscreen document (Chrome) and the background page (Firefox),
    // loaded from these copies on the first PDF (lib/browser/pdf-reader.ts): as files, not
    // bundled, so the worker is a real extension file (a bundled `?url` worker becomes a data:
    // URL in Firefox's background script, which the extension CSP refuses) and no startup
    // bundle carries 1.7 MB of pdf.js.
    'build:publicAssets': (_wxt, files) => {
      // Copied with the two reviewed edits of tools/build/vendor-patches.ts.
      for (const name of ['pdf.min.mjs', 'pdf.worker.min.mjs']) {
        const src = require.resolve(`pdfjs-dist/build/${name}`);
        files.push({ contents: applyPatches(src, readFileSync(src, 'utf8'), PDFJS_PATCHES, usedPatches), relativeDest: `pdfjs/${name}` });
      }
    },
    'build:done': (wxt) => {
      // Production builds only: dev mode (wxt) loads React's development file, which has no patch.
      if (wxt.config.mode !== 'production') return;
      const unused = [...BUNDLE_PATCHES, ...PDFJS_PATCHES].filter((p) => !usedPatches.has(p.name));
      if (unused.length) throw new Error(`vendor patches not applied (dependency changed? review tools/build/vendor-patches.ts): ${unused.map((p) => p.name).join(', ')}`);
    },
  },
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    // What the code needs, no more (checked by test/packages/chrome-package.spec.ts, which lists
    // the features that set it): pdf.js 6 calls Math.sumPrecise (Chrome 147) when it reads a
    // PDF's embedded fonts; Ratify's own code and APIs need 116 (sidePanel.open, getContexts).
    ...(browser === 'firefox' ? {} : { minimum_chrome_version: '147' }),
    description: '__MSG_extDescription__',
    default_locale: 'en',
    permissions: [
      // The tab the user acts on (Verify with RAT from the menu or the shortcut, the toolbar
      // button): read its selection and draw marks there without any host access.
      'activeTab',
      'storage',
      'contextMenus',
      'tabs',
      'scripting',
      'unlimitedStorage',
      // favicon: Chrome's local _favicon cache, so passage icons cause no remote request.
      ...(browser === 'firefox' ? [] : ['sidePanel', 'offscreen', 'favicon']),
    ],
    // Asked for at first use, with a reason (the side panel's prompt, Settings → Privacy): reading
    // the other open tabs and the pages search results point to.
    // Manifest V2 (Firefox) lists host patterns among optional_permissions (WXT does not move them).
    ...(browser === 'firefox' ? { optional_permissions: ['<all_urls>'] } : { optional_host_permissions: ['<all_urls>'] }),
    // Manifest V2 (Firefox) takes the policy as a string, V3 per page kind.
    content_security_policy: browser === 'firefox' ? EXTENSION_PAGES_CSP : { extension_pages: EXTENSION_PAGES_CSP },
    commands: {
      'verify-selection': {
        suggested_key: { default: 'Alt+Shift+V' },
        description: '__MSG_verifyCommand__',
      },
      'check-page': {
        suggested_key: { default: 'Alt+Shift+C' },
        description: '__MSG_checkPageCommand__',
      },
      // Opens the panel: Chrome's action opens the side panel; Firefox toggles the sidebar.
      [browser === 'firefox' ? '_execute_sidebar_action' : '_execute_action']: {
        suggested_key: { default: 'Alt+Shift+R' },
      },
    },
    // The toolbar button and the sidebar show the small icons (public/icon/, drawn from
    // store/icon-small.svg by `npm run screenshots`).
    action: { default_title: 'Open Ratify', default_icon: TOOLBAR_ICONS },
    ...(browser === 'firefox'
      ? {
          sidebar_action: { default_panel: 'sidepanel.html', default_title: 'Ratify' },
          browser_specific_settings: {
            gecko: {
              id: 'ratify@ratify.dev',
              // Firefox's built-in data consent (required by addons.mozilla.org for new add-ons
              // since November 2025) exists from Firefox 140.
              strict_min_version: '140.0',
              // What leaves the browser, shown at install: page text (selection, open tabs, fetched
              // results) and tab titles and addresses go to the model endpoint the user configures;
              // search queries made from the question go to the search provider(s) (Wikipedia by
              // default). Nothing goes to Ratify's authors.
              data_collection_permissions: { required: ['websiteContent', 'browsingActivity', 'searchTerms'] },
            },
            // Firefox for Android reads the consent from 142 (the add-on needs a sidebar, which
            // Android lacks, but addons.mozilla.org checks the key for both).
            gecko_android: { strict_min_version: '142.0' },
          },
        }
      : {}),
  }),
});
