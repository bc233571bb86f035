import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import {
  describeMcpConfigProblem,
  GLOBAL_MCP_SETTINGS_FILE,
  mcpConfigSources,
  WORKSPACE_MCP_FILE,
  type McpConfig,
  type McpConfigSource,
} from '../../core/mcp/mcp-config.js';
import { McpConfigWatcher } from '../../core/mcp/mcp-config-watcher.js';
import { McpHub } from '../../core/mcp/mcp-hub.js';
import { McpElicitationQueue } from '../../core/mcp/mcp-elicitation-queue.js';
import type { McpElicitationAnswer } from '../../core/mcp/mcp-elicitation.js';
import { mcpRootsOf } from '../../core/mcp/mcp-roots.js';
import type { McpCredentialStore } from '../../core/mcp/mcp-credential-store.js';
import { DEFAULT_MCP_REGISTRY_URL } from '../../core/mcp/mcp-registry.js';
import { McpRegistryBrowser } from '../../panel/mcp-registry-browser.js';
import { mcpTaskWiring, type McpTaskWiring } from '../../core/tools/mcp-tools.js';
import { describeWorkspaceServers, workspaceFileNames, WorkspaceTrust, type UntrustedWorkspaceServers } from '../../core/mcp/workspace-trust.js';
import { WorkspaceTrustPrompt, type AskWorkspaceTrust } from '../../core/mcp/workspace-trust-prompt.js';
import type { McpPanelState } from '../../shared/protocol.js';
import { putServerEntry, setServerDisabled, setToolAutoApprove } from '../../core/mcp/mcp-config-edits.js';
import { mcpEditTarget } from '../../core/mcp/mcp-entry-copy.js';
import { McpLogDocuments, openMcpConfigFile } from './mcp-documents.js';
import { mcpPanelState } from '../../panel/mcp-panel-state.js';
import type { McpPanelSource } from '../../panel/panel-ports.js';

/** What the panel and the tasks need from the window's MCP servers. */
/** How the window's MCP servers are set up. */
interface McpServiceOptions {
  /** Smith's storage folder (the one tasks use): the global mcp_settings.json lives there. */
  readonly storageDir: string;
  /** The workspace folder whose .smith/mcp.json is read; undefined without an open folder. */
  readonly cwd: () => string | undefined;
  /** The registry "Browse servers" searches (read at each search). */
  readonly registryUrl?: () => string;
  /** Every workspace folder on disk, offered to the servers as roots. */
  readonly folders?: () => readonly { readonly path: string; readonly name?: string }[];
  readonly version: string;
  /** Read on every request, so a settings change applies to the next turn. */
  readonly discoveryThreshold: () => number;
  /** Where config problems and failures are reported (the Smith output channel). */
  readonly log: { warn(message: string): void };
  /**
   * Asks whether the workspace's .smith/mcp.json servers may start (default: a notification with
   * the commands); true or false is remembered, undefined (dismissed) asks again next time.
   */
  readonly askTrust?: AskWorkspaceTrust;
  /**
   * Where MCP servers' OAuth tokens are kept (without it a server asking for sign-in is an error),
   * and the secrets of servers installed from the registry (the config files refer to them as ${NAME}).
   */
  readonly secrets?: vscode.SecretStorage;
  /** Shows the sign-in page (default: the user's browser, through vscode.env.openExternal). */
  readonly openBrowser?: (url: string, server: string) => void | Promise<void>;
}

/**
 * One McpHub for the window (extension lifetime): watches the global and the workspace config
 * files, applies them, and makes the panel's edits to them. Connecting never blocks activation.
 */
export class McpService implements McpPanelSource, vscode.Disposable {
  readonly hub: McpHub;
  readonly wiring: McpTaskWiring;
  private readonly logs: McpLogDocuments;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private watcher: McpConfigWatcher | undefined;
  private sources: readonly McpConfigSource[] = [];
  private applying: Promise<void> = Promise.resolve();
  private reported = new Set<string>();
  private disposing: Promise<void> | undefined;
  private readonly trust: WorkspaceTrust;
  private readonly trustPrompt: WorkspaceTrustPrompt;
  private readonly trustGranted: vscode.Disposable;
  /** Servers' forms waiting for the panel's answer. */
  private readonly elicitations = new McpElicitationQueue();
  /** The registry search and install of the MCP view. */
  readonly registry: McpRegistryBrowser;
  /** Secrets of installed servers, by variable name, as `${NAME}` in the config files expands them. */
  private secretEnv: Record<string, string> = {};

  constructor(private readonly options: McpServiceOptions) {
    const secrets = options.secrets;
    this.hub = new McpHub({
      clientInfo: { name: 'smith', version: options.version },
      elicitor: this.elicitations.elicit,
      roots: mcpRootsOf(options.folders?.() ?? []),
      ...(secrets
        ? {
            signIn: {
              store: secretStorageCredentials(secrets),
              // A loopback redirect, not a vscode:// URI handler: authorization servers accept
              // http://127.0.0.1 redirects for native clients (RFC 8252), and it is the one redirect
              // the CLI can use too.
              openBrowser: options.openBrowser ?? openInBrowser,
            },
          }
        : {}),
    });
    this.elicitations.onChange(() => this.changed.fire());
    this.registry = new McpRegistryBrowser({
      registryUrl: () => options.registryUrl?.() ?? DEFAULT_MCP_REGISTRY_URL,
      configPath: (scope) => this.configPath(scope === 'user' ? 'global' : 'workspace'),
      storeSecret: (variable, value) => this.storeSecret(variable, value),
      reload: () => this.reload(),
      changed: () => this.changed.fire(),
    });
    // A getter, because the wiring keeps this object and reads it on every turn.
    this.wiring = mcpTaskWiring(this.hub, {
      get discoveryThreshold() {
        return options.discoveryThreshold();
      },
    });
    this.hub.onChange(() => this.changed.fire());
    this.logs = new McpLogDocuments(this.hub);
    this.trust = new WorkspaceTrust({ storageDir: options.storageDir });
    this.trustPrompt = new WorkspaceTrustPrompt(this.trust, options.askTrust ?? askTrustInWindow, () => {
      if (!this.disposing) this.watcher?.refresh();
    });
    // Restricted Mode lifted: the remembered answer (or a prompt) decides again.
    this.trustGranted = vscode.workspace.onDidGrantWorkspaceTrust(() => this.watcher?.refresh());
  }

  /** Reads the files, starts connecting (without waiting) and watches the files; again once the stored secrets are read. */
  start(): void {
    this.watch();
    void this.loadSecrets().then(
      (changed) => {
        if (changed && !this.disposing) this.watcher?.reload();
      },
      (error: unknown) => this.options.log.warn(`Reading the MCP servers' secrets failed: ${String(error)}`),
    );
  }

  private async loadSecrets(): Promise<boolean> {
    const secrets = this.options.secrets;
    if (!secrets) return false;
    const names = JSON.parse((await secrets.get(SECRET_NAMES_KEY)) ?? '[]') as unknown;
    if (!Array.isArray(names)) return false;
    for (const name of names) {
      if (typeof name !== 'string') continue;
      const value = await secrets.get(`${SECRET_PREFIX}${name}`);
      if (value !== undefined) this.secretEnv[name] = value;
    }
    return Object.keys(this.secretEnv).length > 0;
  }

  private async storeSecret(variable: string, value: string): Promise<void> {
    const secrets = this.options.secrets;
    if (!secrets) throw new Error('This window has no secret storage; set the variable in your environment instead.');
    await secrets.store(`${SECRET_PREFIX}${variable}`, value);
    this.secretEnv[variable] = value;
    await secrets.store(SECRET_NAMES_KEY, JSON.stringify(Object.keys(this.secretEnv)));
  }

  /** Follows a change of the workspace folders: the roots offered to servers, and the primary folder's .smith/mcp.json. */
  workspaceChanged(): void {
    if (!this.disposing) this.hub.setRoots(mcpRootsOf(this.options.folders?.() ?? []));
    const next = configSources(this.options.storageDir, this.options.cwd());
    if (this.disposing || next.map((s) => s.path).join('\n') === this.sources.map((s) => s.path).join('\n')) return;
    this.watch();
  }

  /** The panel's view of the servers and problems. */
  panelState(): McpPanelState {
    return mcpPanelState({
      servers: this.hub.servers(),
      problems: this.hub.configProblems(),
      sources: this.sources,
      elicitations: this.elicitations.pending(),
      ...(this.registry.view() ? { registry: this.registry.view()! } : {}),
    });
  }

  /** The path of a config file; the workspace one needs an open folder. */
  configPath(scope: 'global' | 'workspace'): string {
    if (scope === 'global') return join(this.options.storageDir, GLOBAL_MCP_SETTINGS_FILE);
    const cwd = this.options.cwd();
    if (!cwd) throw new Error('Open a folder first: the workspace MCP settings live in its .smith/mcp.json.');
    return join(cwd, WORKSPACE_MCP_FILE);
  }

  /** Resolves once the last configuration read has been applied (new connections settled). */
  whenApplied(): Promise<void> {
    return this.applying;
  }

  /** Re-reads the files now instead of waiting for the watcher (after writing one). */
  async reload(): Promise<void> {
    this.watcher?.reload();
    await this.applying;
  }

  /** Reconnects a server from scratch; resolves when it connected or failed. */
  restart(name: string): Promise<void> {
    return this.hub.restart(name);
  }

  /** Writes `"disabled"` into the file that defines the server and applies it. */
  setDisabled(name: string, disabled: boolean): Promise<void> {
    return this.editEntry(name, (text) => setServerDisabled(text, name, disabled));
  }

  /** Adds the tool to, or removes it from, the server's autoApprove in its file; applies without a restart. */
  setAutoApprove(name: string, tool: string, autoApprove: boolean): Promise<void> {
    const source = this.sources.find((s) => s.path === this.hub.server(name)?.source);
    if (autoApprove && source?.scope === 'workspace') {
      return Promise.reject(
        new Error(
          `"${name}" comes from this workspace's ${basename(source.path) === 'mcp.json' ? WORKSPACE_MCP_FILE : basename(source.path)}, which cannot auto-approve tools (a repository must not grant itself that). Define the server in the global MCP settings to auto-approve its tools.`,
        ),
      );
    }
    return this.editEntry(name, (text) => setToolAutoApprove(text, name, tool, autoApprove));
  }

  /** Opens a config file in an editor, creating it when missing. */
  async openConfig(scope: 'global' | 'workspace'): Promise<void> {
    if (await openMcpConfigFile(this.configPath(scope))) await this.reload();
  }

  /** Shows the server's recent stderr and log messages in a read-only editor. */
  showLog(name: string): Promise<void> {
    return this.logs.show(name);
  }

  /** Settles a server's form from the panel; a mismatching answer throws and the form stays. */
  answerElicitation(id: string, answer: McpElicitationAnswer): void {
    this.elicitations.answer(id, answer);
  }

  /** Signs in to a remote server in the browser; resolves when signed in, rejects with why not. */
  signIn(name: string): Promise<void> {
    return this.hub.signIn(name);
  }

  /**
   * Forgets a remote server's tokens (kept in SecretStorage), has them revoked where the
   * authorization server offers it, and reconnects; a failed revocation is shown as a warning.
   */
  async signOut(name: string): Promise<void> {
    const result = await this.hub.signOut(name);
    if (result.revocation.kind === 'failed') {
      this.options.log.warn(`Signing out of MCP server "${name}": ${result.message}`);
      void vscode.window.showWarningMessage(`Signed out of MCP server "${name}". ${result.message}`);
    }
  }

  /** Stops watching and disconnects every server (ends stdio servers' processes). */
  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      this.watcher?.dispose();
      this.watcher = undefined;
      this.trustGranted.dispose();
      this.logs.dispose();
      this.elicitations.cancelAll();
      await this.hub.dispose();
      this.changed.dispose();
    })();
    return this.disposing;
  }

  private watch(): void {
    this.watcher?.dispose();
    this.sources = configSources(this.options.storageDir, this.options.cwd());
    const watcher = new McpConfigWatcher({
      sources: this.sources,
      env: () => ({ ...process.env, ...this.secretEnv }),
      // In VS Code's Restricted Mode nothing from the workspace starts, whatever was answered before.
      workspaceTrust: (workspace, fingerprint) => (vscode.workspace.isTrusted ? this.trust.check(workspace, fingerprint) : 'unknown'),
      onConfig: (config) => this.apply(config),
    });
    this.watcher = watcher;
    this.apply(watcher.current());
    watcher.start();
  }

  private apply(config: McpConfig): void {
    const problems = new Set(config.problems.map(describeMcpConfigProblem));
    for (const line of problems) if (!this.reported.has(line)) this.options.log.warn(line);
    this.reported = problems;
    this.applying = this.hub.applyConfig(config).catch((error: unknown) => this.options.log.warn(`Applying the MCP settings failed: ${String(error)}`));
    // Restricted Mode: VS Code itself does not trust the folder, so Smith does not ask either.
    if (vscode.workspace.isTrusted) this.trustPrompt.consider(config);
  }

  private async editEntry(name: string, change: (text: string) => string): Promise<void> {
    const server = this.hub.server(name);
    if (!server?.source) throw new Error(`There is no MCP server named "${name}".`);
    // Claude Code's files are never written: the entry is copied into Smith's file and edited there.
    const target = mcpEditTarget(this.sources, name, server.source);
    const file = target.file;
    // Writing under an editor's unsaved changes would make the user pick between two versions.
    if (vscode.workspace.textDocuments.some((doc) => doc.uri.scheme === 'file' && doc.uri.fsPath === file && doc.isDirty)) {
      throw new Error(`${file} has unsaved changes in an editor; save or revert them first.`);
    }
    const text = target.copy ? await readFile(file, 'utf8').catch(() => '') : await readFile(file, 'utf8');
    const next = change(target.copy ? putServerEntry(text, name, target.copy.entry) : text);
    if (next !== text) {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, next, 'utf8');
    }
    await this.reload();
  }
}

/** MCP sign-in credentials in VS Code's SecretStorage (the OS keychain where VS Code has one). */
function secretStorageCredentials(secrets: vscode.SecretStorage): McpCredentialStore {
  return {
    get: async (key) => (await secrets.get(key)) ?? undefined,
    store: async (key, value) => secrets.store(key, value),
    delete: async (key) => secrets.delete(key),
  };
}

async function openInBrowser(url: string, server: string): Promise<void> {
  const opened = await vscode.env.openExternal(vscode.Uri.parse(url, true));
  if (!opened) throw new Error(`the sign-in page for MCP server "${server}" was not opened`);
}

/** The secret storage keys of installed servers' secrets, and the list of their names. */
const SECRET_PREFIX = 'smith.mcp.secret.';
const SECRET_NAMES_KEY = 'smith.mcp.secretNames';

const TRUST = 'Trust and Start';
const DONT = "Don't Start";

/** The default question: a notification naming what would run. */
async function askTrustInWindow(untrusted: UntrustedWorkspaceServers): Promise<boolean | undefined> {
  const servers = describeWorkspaceServers(untrusted.servers).join('; ');
  const choice = await vscode.window.showWarningMessage(
    `This workspace's ${workspaceFileNames(untrusted)} wants to start MCP servers: ${servers}. They run as you, with your files and credentials. Start them? (Smith remembers the answer until the file's servers change.)`,
    TRUST,
    DONT,
  );
  return choice === TRUST ? true : choice === DONT ? false : undefined;
}

/** The global file, and the workspace file when a folder is open. */
function configSources(storageDir: string, cwd: string | undefined): McpConfigSource[] {
  const sources = mcpConfigSources({ storageDir, cwd: cwd ?? storageDir });
  return cwd
    ? sources
    : sources.filter((s) => s.scope !== 'workspace').map((s) => (s.scope === 'claude-user' ? { path: s.path, scope: s.scope, baseDir: s.baseDir } : s));
}
