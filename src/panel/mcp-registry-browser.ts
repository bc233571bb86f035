import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser/lib/esm/main.js';
import { putServerEntry } from '../core/mcp/mcp-config-edits.js';
import { RegistryError, searchRegistry, type RegistryServer } from '../core/mcp/mcp-registry.js';
import { missingInputs, planRegistryInstall, RegistryInstallError, type RegistryInstallPlan } from '../core/mcp/mcp-registry-install.js';
import type { McpRegistryView } from '../shared/protocol.js';

/** What the "Browse servers" part of the MCP view needs from its host. */
export interface RegistryBrowserPorts {
  /** The registry's base URL (the `smith.mcp.registryUrl` setting). */
  registryUrl(): string;
  /** The file an install writes; the workspace one needs an open folder (throws otherwise). */
  configPath(scope: 'user' | 'workspace'): string;
  /** Keeps a secret input's value where the config reads `${NAME}` from (the editor's secret storage). */
  storeSecret(variable: string, value: string): Promise<void>;
  /** Re-reads the config files after an install. */
  reload(): Promise<void>;
  /** The browse state changed (a search answered). */
  changed(): void;
}

/**
 * The panel's registry search and one-click install: the last search's servers (each with how it
 * would be installed and what it needs), and installs into the user's or the workspace's file with
 * the secrets in secret storage (the file gets `${NAME}` references only).
 */
export class McpRegistryBrowser {
  private state: McpRegistryView | undefined;
  private servers = new Map<string, RegistryServer>();
  private searches = 0;

  constructor(private readonly ports: RegistryBrowserPorts) {}

  /** What the MCP view shows of the last search; undefined before one. */
  view(): McpRegistryView | undefined {
    return this.state;
  }

  /** Searches; with `cursor`, the next page is added to the list shown. A failure is shown as the search's error. */
  async search(query: string, cursor?: string): Promise<void> {
    const turn = ++this.searches;
    const registry = this.ports.registryUrl();
    try {
      const page = await searchRegistry({ baseUrl: registry, search: query, ...(cursor ? { cursor } : {}) });
      if (turn !== this.searches) return;
      if (!cursor) this.servers = new Map();
      for (const server of page.servers) this.servers.set(server.name, server);
      const shown = cursor && this.state?.query === query ? this.state.servers : [];
      this.state = {
        query,
        registry,
        servers: [...shown, ...page.servers.map(serverView)],
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        skipped: (cursor && this.state?.query === query ? this.state.skipped : 0) + page.skipped.length,
      };
    } catch (error) {
      if (turn !== this.searches) return;
      if (!(error instanceof RegistryError)) throw error;
      this.state = { query, registry, servers: [], skipped: 0, error: error.message };
    }
    this.ports.changed();
  }

  /**
   * Installs a server of the last search. `given` holds the inputs the form asked for: secrets go
   * to secret storage, the rest into the entry. Returns the key written.
   */
  async install(name: string, scope: 'user' | 'workspace', given: Readonly<Record<string, string>>, remote = false): Promise<string> {
    // A field left empty (or blank) is not given: a required one is missing, an optional one takes its default.
    const values = Object.fromEntries(Object.entries(given).filter(([, value]) => value.trim() !== ''));
    const server = this.servers.get(name);
    if (!server) throw new Error(`"${name}" is not in the last search; search for it again.`);
    const plan = planRegistryInstall(server, { prefer: remote ? 'remote' : 'package', values });
    const missing = missingInputs(plan, values);
    if (missing.length > 0) throw new Error(`${name} needs ${missing.map((i) => i.name).join(', ')}.`);
    const secrets = plan.inputs.filter((i) => i.secret);
    const unsetSecrets = secrets.filter((i) => i.required && !values[i.name]);
    if (unsetSecrets.length > 0) throw new Error(`${name} needs ${unsetSecrets.map((i) => i.name).join(', ')} (kept in secret storage, not in the file).`);
    for (const input of secrets) {
      const value = values[input.name];
      if (value) await this.ports.storeSecret(secretVariable(plan, input.name), value);
    }
    const file = this.ports.configPath(scope);
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const key = uniqueKey(text, plan.name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, putServerEntry(text, key, plan.entry), 'utf8');
    await this.ports.reload();
    return key;
  }
}

/** The variable a secret input's `${NAME}` reference names in the planned entry. */
function secretVariable(plan: RegistryInstallPlan, input: string): string {
  const holder = (plan.entry.env ?? plan.entry.headers) as Record<string, string> | undefined;
  return /^\$\{([^}]+)\}$/.exec(holder?.[input] ?? '')?.[1] ?? input;
}

/** The plan's key, or key-2, key-3… when the file already has a server of that name (an install never replaces one). */
function uniqueKey(text: string, key: string): string {
  if (text.trim() === '') return key;
  // A file that does not parse is reported by putServerEntry.
  const parsed = parseJsonc(text, [], { allowTrailingComma: true }) as { mcpServers?: unknown } | undefined;
  const servers = typeof parsed?.mcpServers === 'object' && parsed.mcpServers !== null ? (parsed.mcpServers as Record<string, unknown>) : {};
  if (!(key in servers)) return key;
  for (let n = 2; ; n++) if (!(`${key}-${n}` in servers)) return `${key}-${n}`;
}

function serverView(server: RegistryServer): McpRegistryView['servers'][number] {
  let plan: RegistryInstallPlan | undefined;
  let problem: string | undefined;
  try {
    plan = planRegistryInstall(server);
  } catch (error) {
    if (!(error instanceof RegistryInstallError)) throw error;
    problem = error.message;
  }
  const transports = [
    ...(server.packages ?? []).map((p) => `${p.registryType} ${p.identifier}${p.version ? `@${p.version}` : ''} (${p.transport.type})`),
    ...(server.remotes ?? []).map((r) => `${r.type} ${r.url}`),
  ];
  const source = server.repository?.url ?? server.websiteUrl;
  return {
    name: server.name,
    ...(server.title ? { title: server.title } : {}),
    ...(server.description ? { description: server.description } : {}),
    ...(server.version ? { version: server.version } : {}),
    ...(server.status ? { status: server.status } : {}),
    ...(source ? { source } : {}),
    transports,
    ...(plan ? { installs: plan.how, inputs: plan.inputs.map((i) => ({ ...i })) } : { inputs: [] }),
    ...(problem ? { problem } : {}),
  };
}
