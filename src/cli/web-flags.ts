import { parseViewport, type WebToolSettings } from '../core/browser/browser-settings.js';
import { parseHostPattern } from '../core/web/host-patterns.js';
import { readWebSearchSettings, WEB_SEARCH_CHOICES, WEB_SEARCH_KEY_ENV_VARS } from '../core/web-search/web-search-settings.js';

/** The web tools' flags as parseArgs gives them. */
interface WebFlagValues {
  readonly 'browser-path'?: string;
  readonly 'browser-cdp'?: string;
  readonly 'browser-viewport'?: string;
  readonly 'browser-headed'?: boolean;
  readonly 'web-deny'?: readonly string[];
  readonly 'web-search'?: string;
  readonly 'searxng-url'?: string;
}

/** The parseArgs declarations of the web tools' flags. */
export const WEB_FLAG_OPTIONS = {
  'browser-path': { type: 'string' },
  'browser-cdp': { type: 'string' },
  'browser-viewport': { type: 'string' },
  'browser-headed': { type: 'boolean', default: false },
  'web-deny': { type: 'string', multiple: true },
  'web-search': { type: 'string' },
  'searxng-url': { type: 'string' },
} as const;

/** The help lines of those flags. */
export const WEB_FLAGS_HELP = `  --browser-path FILE        the Chromium, Chrome or Edge browser_action starts (default: the first
                             of chromium, google-chrome, microsoft-edge found)
  --browser-cdp URL          use a running browser over its DevTools endpoint instead
                             (e.g. http://127.0.0.1:9222)
  --browser-viewport WxH     the page's size and so the screenshots' (default 900x600)
  --browser-headed           show the browser window (default: headless)
  --web-deny DOMAIN          never reach this host from browser_action, web_fetch or an @url
                             mention, nor by a redirect (repeatable; example.com includes its
                             subdomains, *.example.com only those); nor show it as a
                             web_search result
  --web-search BACKEND       where web_search sends queries: ${WEB_SEARCH_CHOICES.join('|')}
                             (default auto: a --searxng-url, else ${WEB_SEARCH_KEY_ENV_VARS.brave}, else
                             ${WEB_SEARCH_KEY_ENV_VARS.tavily}, else the anthropic or openai provider's
                             own search, else web_search is off)
  --searxng-url URL          a SearXNG instance web_search asks (its JSON format enabled)`;

/** Checks the web tools' flags; returns the settings, or what is wrong with a flag. */
export function webSettingsFromFlags(values: WebFlagValues): WebToolSettings | string {
  const viewport = values['browser-viewport'] !== undefined ? parseViewport(values['browser-viewport']) : undefined;
  if (typeof viewport === 'string') return `--browser-viewport: ${viewport}`;
  const cdp = values['browser-cdp'];
  if (cdp !== undefined && !/^(https?|wss?):\/\/\S+$/.test(cdp)) return `--browser-cdp must be an http:// or ws:// address; got "${cdp}"`;
  const denied = (values['web-deny'] ?? []).map((d) => d.trim()).filter((d) => d !== '');
  const bad = denied.find((d) => parseHostPattern(d) === undefined || /[/@?#]/.test(d));
  if (bad !== undefined) return `--web-deny takes a host name such as example.com or *.example.com; got "${bad}"`;
  const search = readWebSearchSettings({ backend: values['web-search'], searxngUrl: values['searxng-url'] });
  if (typeof search === 'string') return `--web-search/--searxng-url: ${search}`;
  return {
    browser: {
      ...(values['browser-path'] ? { executablePath: values['browser-path'] } : {}),
      ...(cdp ? { cdpEndpoint: cdp } : {}),
      ...(viewport ? { viewport } : {}),
      ...(values['browser-headed'] ? { headed: true } : {}),
    },
    ...(denied.length > 0 ? { deniedDomains: denied } : {}),
    search,
  };
}
