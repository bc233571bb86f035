import * as vscode from 'vscode';
import { WEB_SEARCH_KEY_ENV_VARS, type KeyedBackend } from '../../core/web-search/web-search-settings.js';

/** The search services whose keys the user can store, as the quick pick names them. */
const SERVICES: readonly { readonly backend: KeyedBackend; readonly label: string; readonly where: string }[] = [
  { backend: 'brave', label: 'Brave Search', where: 'api-dashboard.search.brave.com' },
  { backend: 'tavily', label: 'Tavily', where: 'app.tavily.com' },
];

/**
 * The search services' API keys, one SecretStorage entry each (the OS keychain where VS Code has
 * one); without a stored key the environment variable is used, as the CLI does.
 */
export class WebSearchKeys {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** Every key there is, stored or from the environment. */
  async all(): Promise<Partial<Record<KeyedBackend, string>>> {
    const keys: Partial<Record<KeyedBackend, string>> = {};
    for (const { backend } of SERVICES) {
      const key = (await this.secrets.get(secretKey(backend))) || this.env[WEB_SEARCH_KEY_ENV_VARS[backend]]?.trim();
      if (key) keys[backend] = key;
    }
    return keys;
  }

  /** Asks which service and its key, and stores it; an empty key removes the stored one. */
  async askAndStore(): Promise<void> {
    const service = await vscode.window.showQuickPick(
      SERVICES.map((s) => ({ label: s.label, description: s.where, service: s })),
      { title: 'Smith: Set Web Search API Key', placeHolder: 'The search service web_search uses' },
    );
    if (!service) return;
    const key = await vscode.window.showInputBox({
      title: `${service.label} API key`,
      prompt: `Kept in VS Code's secret storage. Leave empty to remove the stored key (${WEB_SEARCH_KEY_ENV_VARS[service.service.backend]} is used then, if set). Takes effect for new tasks.`,
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return;
    if (key.trim()) await this.secrets.store(secretKey(service.service.backend), key.trim());
    else await this.secrets.delete(secretKey(service.service.backend));
  }
}

function secretKey(backend: KeyedBackend): string {
  return `smith.webSearch.apiKey.${backend}`;
}
