import type * as vscode from 'vscode';
import { parseViewport, type WebToolSettings } from '../../core/browser/browser-settings.js';
import { readWebSearchSettings } from '../../core/web-search/web-search-settings.js';

/** Reads `smith.browser.*`, `smith.web.deniedDomains` and `smith.webSearch.*`; a bad value is left out (the default applies). */
export function readWebSettings(config: vscode.WorkspaceConfiguration): WebToolSettings {
  const text = (key: string) => {
    const value = config.get<unknown>(key);
    return typeof value === 'string' ? value.trim() : '';
  };
  const viewport = text('browser.viewport') === '' ? undefined : parseViewport(text('browser.viewport'));
  const denied = config.get<unknown>('web.deniedDomains');
  // From the user's settings only: a repository's .vscode/settings.json must not send the model's queries to a server it names.
  const search = readWebSearchSettings({
    backend: config.inspect<unknown>('webSearch.backend')?.globalValue,
    searxngUrl: config.inspect<unknown>('webSearch.searxngUrl')?.globalValue,
  });
  return {
    browser: {
      ...(text('browser.executablePath') ? { executablePath: text('browser.executablePath') } : {}),
      ...(text('browser.cdpEndpoint') ? { cdpEndpoint: text('browser.cdpEndpoint') } : {}),
      ...(viewport !== undefined && typeof viewport !== 'string' ? { viewport } : {}),
      ...(config.get<unknown>('browser.headless') === false ? { headed: true } : {}),
    },
    deniedDomains: Array.isArray(denied) ? denied.filter((d): d is string => typeof d === 'string' && d.trim() !== '').map((d) => d.trim()) : [],
    // A backend that cannot be set up as written is off, not another one the user did not choose.
    search: typeof search === 'string' ? { backend: 'off' } : search,
  };
}
