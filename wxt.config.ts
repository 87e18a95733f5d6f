import { defineConfig } from 'wxt';

// Host access is needed for: reading open tabs (scripting), calling the user's LLM endpoint and
// search providers from the worker without CORS headers, and fetching result pages.
export default defineConfig({
  modules: ['@wxt-dev/module-react'],
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    permissions: [
      'storage',
      'contextMenus',
      'tabs',
      'scripting',
      'unlimitedStorage',
      // favicon: Chrome's local _favicon cache, so passage icons cause no remote request.
      ...(browser === 'firefox' ? [] : ['sidePanel', 'offscreen', 'favicon']),
    ],
    host_permissions: ['<all_urls>'],
    commands: {
      'verify-selection': {
        suggested_key: { default: 'Alt+Shift+V' },
        description: '__MSG_verifyCommand__',
      },
      // Opens the panel (Chrome) / toolbar popup-less action (Firefox MV2 names it differently).
      [browser === 'firefox' ? '_execute_browser_action' : '_execute_action']: {
        suggested_key: { default: 'Alt+Shift+R' },
      },
    },
    action: { default_title: 'Open Ratify' },
    ...(browser === 'firefox'
      ? {
          sidebar_action: { default_panel: 'sidepanel.html', default_title: 'Ratify' },
          browser_specific_settings: { gecko: { id: 'ratify@ratify.dev' } },
        }
      : {}),
  }),
});
