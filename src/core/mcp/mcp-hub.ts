import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpConfig, McpConfigProblem } from './mcp-config.js';
import type { McpRoot } from './mcp-connection.js';
import { DEFAULT_ELICITATION_TIMEOUT_MS, type McpElicitor } from './mcp-elicitation.js';
import { McpServerUnavailableError } from './mcp-errors.js';
import { applyMcpConfig } from './mcp-hub-config.js';
import { snapshotOf, unknownServerMessage, type HubContext, type HubSlot, type McpHubSettings, type McpServerLogEntry } from './mcp-hub-state.js';
import { DEFAULT_REVOCATION_TIMEOUT_MS } from './mcp-oauth-revocation.js';
import { McpServerAuth, type McpSignOutResult } from './mcp-server-auth.js';
import { McpServerCalls, type McpCallOptions } from './mcp-server-calls.js';
import { McpServerLifecycle } from './mcp-server-lifecycle.js';
import type { McpServerSnapshot } from './mcp-server-snapshot.js';
import type { McpSignInPorts } from './mcp-sign-in.js';

export type { McpServerLogEntry } from './mcp-hub-state.js';
export type { McpProgress } from './mcp-server-calls.js';
export type { McpSignOutResult } from './mcp-server-auth.js';

/** Tuning for the hub; the defaults suit interactive use. */
interface McpHubOptions {
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** The environment stdio servers inherit (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly maxReconnectAttempts?: number;
  readonly reconnectBaseDelayMs?: number;
  readonly reconnectMaxDelayMs?: number;
  /** A connection that stays up this long resets the reconnect attempt count. */
  readonly stableAfterMs?: number;
  /** Lines of stderr and log messages kept per server. */
  readonly logLines?: number;
  /** Answers servers' forms (`elicitation/create`); without one every request is declined. See also setElicitor. */
  readonly elicitor?: McpElicitor;
  /** How long a form waits for its answer before it is cancelled (default 5 minutes). */
  readonly elicitationTimeoutMs?: number;
  /** How long sign-out waits for the authorization server to revoke the tokens (default 10 s). */
  readonly revocationTimeoutMs?: number;
  /** The folders offered as roots at first (see setRoots). */
  readonly roots?: readonly McpRoot[];
  /** OAuth sign-in for remote servers; without it a server answering 401 is an error. */
  readonly signIn?: McpSignInPorts;
}

/**
 * The user's MCP servers: connections, status, lists, reconnects and calls. UI-agnostic. The work
 * is done by its parts: the connection lifecycle, the calls, sign-in and the config reload.
 */
export class McpHub {
  private readonly slots = new Map<string, HubSlot>();
  private readonly changeListeners = new Set<() => void>();
  private readonly logListeners = new Set<(entry: McpServerLogEntry) => void>();
  private problems: readonly McpConfigProblem[] = [];
  private disposed = false;
  private elicitor: McpElicitor | undefined;
  private roots: readonly McpRoot[];
  private readonly context: HubContext;
  private readonly lifecycle: McpServerLifecycle;
  private readonly calls: McpServerCalls;
  private readonly auth: McpServerAuth;

  constructor(options: McpHubOptions = {}) {
    const settings: McpHubSettings = {
      clientInfo: options.clientInfo ?? { name: 'smith', version: '0.0.0' },
      env: options.env ?? process.env,
      maxReconnectAttempts: options.maxReconnectAttempts ?? 5,
      reconnectBaseDelayMs: options.reconnectBaseDelayMs ?? 1000,
      reconnectMaxDelayMs: options.reconnectMaxDelayMs ?? 30_000,
      stableAfterMs: options.stableAfterMs ?? 30_000,
      logLines: options.logLines ?? 200,
      elicitationTimeoutMs: options.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS,
      revocationTimeoutMs: options.revocationTimeoutMs ?? DEFAULT_REVOCATION_TIMEOUT_MS,
    };
    this.elicitor = options.elicitor;
    this.roots = options.roots ?? [];
    this.context = {
      slots: this.slots,
      settings,
      signInPorts: options.signIn,
      isDisposed: () => this.disposed,
      elicitor: () => this.elicitor,
      roots: () => this.roots,
      emitChange: () => this.emitChange(),
      emitLog: (entry) => {
        for (const listener of this.logListeners) listener(entry);
      },
    };
    this.auth = new McpServerAuth(this.context, () => this.lifecycle);
    this.lifecycle = new McpServerLifecycle(this.context, {
      authProvider: (config) => this.auth.authProvider(config),
      signInRequired: (slot, reason) => this.auth.signInRequired(slot, reason),
    });
    this.calls = new McpServerCalls(this.context, (slot, reason) => this.auth.signInRequired(slot, reason));
  }

  /** Who answers servers' forms from now on; undefined: they are declined. */
  setElicitor(elicitor: McpElicitor | undefined): void {
    this.elicitor = elicitor;
  }

  /** The folders offered as roots; when they changed, every connected server is told (`notifications/roots/list_changed`). */
  setRoots(roots: readonly McpRoot[]): void {
    const same = roots.length === this.roots.length && roots.every((root, i) => root.uri === this.roots[i]!.uri && root.name === this.roots[i]!.name);
    this.roots = roots.map((root) => ({ ...root }));
    if (same) return;
    for (const slot of this.slots.values()) slot.connection?.rootsChanged();
  }

  /** The folders offered as roots now. */
  currentRoots(): readonly McpRoot[] {
    return this.roots;
  }

  /**
   * Brings the running servers in line with a configuration: adds, removes and restarts only what
   * changed; autoApprove and timeout changes apply live. Resolves when new connections settled.
   */
  async applyConfig(config: McpConfig): Promise<void> {
    if (this.disposed) return;
    this.problems = config.problems;
    await applyMcpConfig(this.context, this.lifecycle, config);
  }

  /** Every server, in configuration order. */
  servers(): McpServerSnapshot[] {
    return [...this.slots.values()].map(snapshotOf);
  }

  /** One server, or undefined when no server has that name. */
  server(name: string): McpServerSnapshot | undefined {
    const slot = this.slots.get(name);
    return slot ? snapshotOf(slot) : undefined;
  }

  /** Problems found in the config files at the last load. */
  configProblems(): readonly McpConfigProblem[] {
    return this.problems;
  }

  /** The server's recent stderr output and log messages. */
  serverLog(name: string): readonly string[] {
    return this.slots.get(name)?.log.snapshot() ?? [];
  }

  /** True when the user listed this tool in the server's autoApprove. */
  isAutoApproved(server: string, tool: string): boolean {
    return this.slots.get(server)?.config?.autoApprove.includes(tool) ?? false;
  }

  /** Calls a tool with the server's timeout; throws McpServerUnavailableError or McpTimeoutError. */
  callTool(server: string, tool: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<CallToolResult> {
    return this.calls.callTool(server, tool, args, options);
  }

  /** Reads a resource with the server's timeout. */
  readResource(server: string, uri: string, options: McpCallOptions = {}): Promise<ReadResourceResult> {
    return this.calls.readResource(server, uri, options);
  }

  /** A server's prompt filled in with `args`, as the text of its messages (what a slash command sends). */
  getPrompt(server: string, name: string, args: Readonly<Record<string, string>>, options: McpCallOptions = {}): Promise<string> {
    return this.calls.getPrompt(server, name, args, options);
  }

  /** Reconnects a server from scratch (also after it gave up reconnecting). */
  async restart(name: string): Promise<void> {
    const slot = this.configured(name);
    slot.attempts = 0;
    await this.lifecycle.start(slot);
  }

  /** Turns a server off or on for this session; a later config change to `disabled` wins. */
  async setDisabled(name: string, disabled: boolean): Promise<void> {
    const slot = this.configured(name);
    slot.disabledOverride = disabled;
    slot.attempts = 0;
    await this.lifecycle.start(slot);
  }

  /**
   * Signs in to a remote server in the browser (see signInToMcpServer) and reconnects with the new
   * tokens. Meanwhile the server is `connecting`; on failure it `needs-auth`, with the reason, and
   * the error is thrown. Stopping the server or the hub cancels it.
   */
  signIn(name: string): Promise<void> {
    return this.auth.signIn(name);
  }

  /**
   * Signs out of a remote server: forgets its tokens, registered client and discovery on this
   * machine, asks the authorization server to revoke the tokens when it offers that (RFC 7009; its
   * failure is reported, not thrown), then reconnects (it will ask to sign in again).
   */
  signOut(name: string): Promise<McpSignOutResult> {
    return this.auth.signOut(name);
  }

  /** Called after any change of status, lists or settings; returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Called for each log message a server sends. */
  onServerLog(listener: (entry: McpServerLogEntry) => void): () => void {
    this.logListeners.add(listener);
    return () => this.logListeners.delete(listener);
  }

  /** Disconnects every server; the hub does nothing afterwards. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const slots = [...this.slots.values()];
    this.slots.clear();
    await Promise.all(slots.map((slot) => this.lifecycle.stop(slot)));
    this.changeListeners.clear();
    this.logListeners.clear();
  }

  /**
   * Resolves once no server is still making its first connection within its `timeout`, counted
   * from when it started: what a task waits for before a request. A server past it goes on
   * connecting in the background (the task is told it is unavailable meanwhile); a server that
   * never answers holds no one longer than its timeout.
   */
  whenReady(signal?: AbortSignal): Promise<void> {
    return this.lifecycle.whenReady((listener) => this.onChange(listener), signal);
  }

  /** Servers still making their first connection after a task stopped waiting for them, by name. */
  stillConnecting(): string[] {
    return this.lifecycle.stillConnecting();
  }

  private configured(name: string): HubSlot {
    const slot = this.slots.get(name);
    if (!slot?.config) throw new McpServerUnavailableError(unknownServerMessage(this.context, name));
    return slot;
  }

  private emitChange(): void {
    if (this.disposed) return;
    for (const listener of this.changeListeners) listener();
  }
}
