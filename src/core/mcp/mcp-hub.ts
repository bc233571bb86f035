import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MCP_TIMEOUT_SECONDS, describeMcpConfigProblem, type McpConfig, type McpConfigProblem, type McpServerConfig } from './mcp-config.js';
import { diffMcpConfigs } from './mcp-config-diff.js';
import { McpConnection, type McpRoot } from './mcp-connection.js';
import { answerElicitation, DEFAULT_ELICITATION_TIMEOUT_MS, type McpElicitor } from './mcp-elicitation.js';
import { McpRequestError, McpServerUnavailableError, McpTimeoutError } from './mcp-errors.js';
import { McpLogBuffer } from './mcp-log-buffer.js';
import { describeStatus, unavailableMessage, type McpServerSnapshot, type McpServerStatus } from './mcp-server-snapshot.js';
import { mcpSdk } from './mcp-sdk-loader.js';
import { forgetOAuth, hasStoredTokens, SmithOAuthProvider } from './mcp-oauth-provider.js';
import { signInToMcpServer, type McpSignInPorts } from './mcp-sign-in.js';
import { isSignInRequired, messageOf } from './mcp-transport.js';

/** A log message a server sent (notifications/message). */
export interface McpServerLogEntry {
  readonly server: string;
  readonly level: string;
  readonly text: string;
}

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
  /** The folders offered as roots at first (see setRoots). */
  readonly roots?: readonly McpRoot[];
  /** OAuth sign-in for remote servers; without it a server answering 401 is an error. */
  readonly signIn?: McpSignInPorts;
}

/** Per-call options. */
interface McpCallOptions {
  readonly signal?: AbortSignal;
  /** Progress the server reports (notifications/progress); each one also restarts the call's timeout. */
  readonly onProgress?: (progress: McpProgress) => void;
}

/** One `notifications/progress` of a call. */
export interface McpProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

interface Slot {
  readonly name: string;
  config?: McpServerConfig;
  invalid?: McpConfigProblem;
  status: McpServerStatus;
  error?: string;
  connection?: McpConnection;
  generation: number;
  readonly log: McpLogBuffer;
  attempts: number;
  reconnect?: { attempt: number; maxAttempts: number };
  disabledOverride?: boolean;
  timers: Set<NodeJS.Timeout>;
  /** When a task stops waiting for this server's first connection (its start plus its `timeout`). */
  waitUntil?: number;
  /** Gives up the connection attempt under way (stop, dispose). */
  connecting?: AbortController;
  /** Where the server's OAuth sign-in stands, when it asked for one. */
  auth?: { state: 'signing-in' | 'needs-sign-in' | 'signed-in'; url?: string };
  /** True once sign-in started on its own for this configuration (it does not again until the user asks). */
  autoSignInDone?: boolean;
}

/** The user's MCP servers: connections, status, lists, reconnects and calls. UI-agnostic. */
export class McpHub {
  private readonly slots = new Map<string, Slot>();
  private readonly changeListeners = new Set<() => void>();
  private readonly logListeners = new Set<(entry: McpServerLogEntry) => void>();
  private problems: readonly McpConfigProblem[] = [];
  private disposed = false;
  private readonly settings: Required<Omit<McpHubOptions, 'elicitor' | 'roots' | 'signIn'>>;
  private elicitor: McpElicitor | undefined;
  private roots: readonly McpRoot[];
  private readonly signInPorts: McpSignInPorts | undefined;

  constructor(options: McpHubOptions = {}) {
    this.settings = {
      clientInfo: options.clientInfo ?? { name: 'smith', version: '0.0.0' },
      env: options.env ?? process.env,
      maxReconnectAttempts: options.maxReconnectAttempts ?? 5,
      reconnectBaseDelayMs: options.reconnectBaseDelayMs ?? 1000,
      reconnectMaxDelayMs: options.reconnectMaxDelayMs ?? 30_000,
      stableAfterMs: options.stableAfterMs ?? 30_000,
      logLines: options.logLines ?? 200,
      elicitationTimeoutMs: options.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS,
    };
    this.elicitor = options.elicitor;
    this.roots = options.roots ?? [];
    this.signInPorts = options.signIn;
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
    const before = new Map<string, McpServerConfig>();
    for (const slot of this.slots.values()) if (slot.config) before.set(slot.name, slot.config);
    const diff = diffMcpConfigs(before, config.servers);
    const work: Promise<void>[] = [];
    for (const name of diff.removed) {
      const slot = this.slots.get(name)!;
      slot.config = undefined;
      if (!config.invalid.has(name)) {
        this.slots.delete(name);
        work.push(this.stop(slot));
      }
    }
    for (const [name, problem] of config.invalid) {
      const slot = this.slotFor(name);
      slot.config = undefined;
      slot.invalid = problem;
      work.push(this.stop(slot));
      slot.status = 'error';
      slot.error = `Invalid configuration: ${describeMcpConfigProblem(problem)}`;
    }
    for (const slot of [...this.slots.values()]) {
      if (slot.invalid && !config.invalid.has(slot.name) && !config.servers.has(slot.name)) this.slots.delete(slot.name);
    }
    for (const name of [...diff.added, ...diff.restarted]) {
      const slot = this.slotFor(name);
      slot.config = config.servers.get(name)!;
      slot.invalid = undefined;
      slot.disabledOverride = undefined;
      slot.autoSignInDone = undefined;
      slot.attempts = 0;
      // Set now, not once the old connection has closed: a task may ask whenReady at once.
      slot.waitUntil = Date.now() + slot.config.timeoutSeconds * 1000;
      work.push(this.start(slot));
    }
    for (const name of diff.updated) this.slots.get(name)!.config = config.servers.get(name)!;
    this.emitChange();
    await Promise.all(work);
  }

  /** Every server, in configuration order. */
  servers(): McpServerSnapshot[] {
    return [...this.slots.values()].map((slot) => this.snapshot(slot));
  }

  /** One server, or undefined when no server has that name. */
  server(name: string): McpServerSnapshot | undefined {
    const slot = this.slots.get(name);
    return slot ? this.snapshot(slot) : undefined;
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
  async callTool(server: string, tool: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<CallToolResult> {
    const { slot, connection } = this.requireConnected(server);
    const timeoutSeconds = slot.config!.timeoutSeconds;
    const onProgress = options.onProgress;
    try {
      const result = await connection.client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: timeoutSeconds * 1000,
        ...(options.signal ? { signal: options.signal } : {}),
        // A call that reports progress is alive: each report restarts its timeout.
        ...(onProgress
          ? {
              resetTimeoutOnProgress: true,
              onprogress: (p) =>
                onProgress({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message ? { message: p.message } : {}) }),
            }
          : {}),
      });
      // A tool that changed the server's tools (it sent tools/list_changed before answering) is followed by the new list.
      await connection.listsSettled();
      // Servers from before 2024-11-05 answer with { toolResult }; show it as text.
      if (!('content' in result)) return { content: [{ type: 'text', text: JSON.stringify(result.toolResult) }] };
      return result as CallToolResult;
    } catch (error) {
      throw this.callError(error, slot, `tool ${tool}`, timeoutSeconds, options.signal);
    }
  }

  /** Reads a resource with the server's timeout. */
  async readResource(server: string, uri: string, options: McpCallOptions = {}): Promise<ReadResourceResult> {
    const { slot, connection } = this.requireConnected(server);
    const timeoutSeconds = slot.config!.timeoutSeconds;
    try {
      return await connection.client.readResource({ uri }, { timeout: timeoutSeconds * 1000, ...(options.signal ? { signal: options.signal } : {}) });
    } catch (error) {
      throw this.callError(error, slot, `resource ${uri}`, timeoutSeconds, options.signal);
    }
  }

  /** A server's prompt filled in with `args`, as the text of its messages (what a slash command sends). */
  async getPrompt(server: string, name: string, args: Readonly<Record<string, string>>, options: McpCallOptions = {}): Promise<string> {
    const { slot, connection } = this.requireConnected(server);
    const timeoutSeconds = slot.config!.timeoutSeconds;
    try {
      const result = await connection.client.getPrompt(
        { name, arguments: { ...args } },
        { timeout: timeoutSeconds * 1000, ...(options.signal ? { signal: options.signal } : {}) },
      );
      return result.messages
        .map((message) =>
          message.content.type === 'text'
            ? message.content.text
            : message.content.type === 'resource' && 'text' in message.content.resource
              ? String(message.content.resource.text)
              : `[${message.content.type} content left out]`,
        )
        .join('\n\n');
    } catch (error) {
      throw this.callError(error, slot, `prompt ${name}`, timeoutSeconds, options.signal);
    }
  }

  /** Reconnects a server from scratch (also after it gave up reconnecting). */
  async restart(name: string): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot?.config) throw new McpServerUnavailableError(this.unknownServerMessage(name));
    slot.attempts = 0;
    await this.start(slot);
  }

  /** Turns a server off or on for this session; a later config change to `disabled` wins. */
  async setDisabled(name: string, disabled: boolean): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot?.config) throw new McpServerUnavailableError(this.unknownServerMessage(name));
    slot.disabledOverride = disabled;
    slot.attempts = 0;
    await this.start(slot);
  }

  /**
   * Signs in to a remote server in the browser (see signInToMcpServer) and reconnects with the new
   * tokens. Meanwhile the server is `connecting`; on failure it `needs-auth`, with the reason, and
   * the error is thrown. Stopping the server or the hub cancels it.
   */
  async signIn(name: string): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot?.config) throw new McpServerUnavailableError(this.unknownServerMessage(name));
    const ports = this.signInPorts;
    if (!ports) throw new McpServerUnavailableError('Sign-in is not available here.');
    if (slot.config.transport.type === 'stdio') throw new McpServerUnavailableError(`"${name}" is a local (stdio) server; only remote servers sign in.`);
    if (slot.status === 'disabled') throw new McpServerUnavailableError(`"${name}" is disabled; enable it first.`);
    // Set before anything is awaited, so a task waiting for the server sees it still connecting.
    slot.status = 'connecting';
    slot.error = undefined;
    slot.reconnect = undefined;
    slot.auth = { state: 'signing-in' };
    await this.stop(slot);
    const generation = slot.generation;
    const config = slot.config;
    const current = () => slot.generation === generation && !this.disposed;
    const attempt = new AbortController();
    slot.connecting = attempt;
    this.emitChange();
    try {
      await signInToMcpServer(config, {
        ports,
        clientInfo: this.settings.clientInfo,
        signal: attempt.signal,
        onAuthorizationUrl: (url) => {
          if (!current()) return;
          slot.auth = { state: 'signing-in', url };
          this.emitChange();
        },
      });
    } catch (error) {
      if (current()) {
        slot.status = 'needs-auth';
        slot.auth = { state: 'needs-sign-in' };
        slot.error = `Sign-in failed: ${messageOf(error)}`;
        this.emitChange();
      }
      throw new McpServerUnavailableError(`Sign-in to MCP server "${name}" failed: ${messageOf(error)}`);
    } finally {
      if (slot.connecting === attempt) slot.connecting = undefined;
    }
    if (!current()) return;
    slot.auth = undefined;
    slot.attempts = 0;
    await this.connect(slot, generation, false);
  }

  /** Forgets a remote server's tokens and registered client, then reconnects (it will ask to sign in again). */
  async signOut(name: string): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot?.config) throw new McpServerUnavailableError(this.unknownServerMessage(name));
    const transport = slot.config.transport;
    if (!this.signInPorts || transport.type === 'stdio') throw new McpServerUnavailableError(`"${name}" has no sign-in to sign out of.`);
    await this.stop(slot);
    await forgetOAuth(this.signInPorts.store, transport.url);
    // Signing out must not open the browser again on its own.
    slot.autoSignInDone = true;
    slot.attempts = 0;
    await this.start(slot);
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
    await Promise.all(slots.map((slot) => this.stop(slot)));
    this.changeListeners.clear();
    this.logListeners.clear();
  }

  private slotFor(name: string): Slot {
    let slot = this.slots.get(name);
    if (!slot) {
      slot = { name, status: 'connecting', generation: 0, log: new McpLogBuffer(this.settings.logLines), attempts: 0, timers: new Set() };
      this.slots.set(name, slot);
    }
    return slot;
  }

  private async start(slot: Slot): Promise<void> {
    await this.stop(slot);
    const config = slot.config!;
    slot.error = undefined;
    slot.reconnect = undefined;
    slot.auth = undefined;
    if (slot.disabledOverride ?? config.disabled) {
      slot.status = 'disabled';
      this.emitChange();
      return;
    }
    slot.status = 'connecting';
    slot.waitUntil = Date.now() + config.timeoutSeconds * 1000;
    this.emitChange();
    await this.connect(slot, slot.generation, false);
  }

  /**
   * Resolves once no server is still making its first connection within its `timeout`, counted
   * from when it started: what a task waits for before a request. A server past it goes on
   * connecting in the background (the task is told it is unavailable meanwhile); a server that
   * never answers holds no one longer than its timeout.
   */
  async whenReady(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = Date.now();
      const deadlines = [...this.slots.values()].filter((slot) => slot.status === 'connecting' && (slot.waitUntil ?? 0) > now).map((slot) => slot.waitUntil!);
      if (deadlines.length === 0 || this.disposed || signal?.aborted) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          off();
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(...deadlines) - now);
        const off = this.onChange(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Servers still making their first connection after a task stopped waiting for them, by name. */
  stillConnecting(): string[] {
    const now = Date.now();
    return [...this.slots.values()].filter((slot) => slot.status === 'connecting' && !slot.reconnect && (slot.waitUntil ?? 0) <= now).map((slot) => slot.name);
  }

  private async stop(slot: Slot): Promise<void> {
    slot.generation++;
    slot.connecting?.abort();
    slot.connecting = undefined;
    for (const timer of slot.timers) clearTimeout(timer);
    slot.timers.clear();
    const connection = slot.connection;
    slot.connection = undefined;
    await connection?.close();
  }

  private async connect(slot: Slot, generation: number, isReconnect: boolean): Promise<void> {
    const config = slot.config!;
    const current = () => slot.generation === generation && !this.disposed;
    let connection: McpConnection;
    let signedIn = false;
    const attempt = new AbortController();
    slot.connecting = attempt;
    try {
      const authProvider = await this.backgroundAuth(config);
      signedIn = authProvider !== undefined;
      if (!current()) return;
      connection = await McpConnection.open(
        config,
        {
          clientInfo: this.settings.clientInfo,
          // Form-mode elicitation only: a URL-mode request would send the user to a web page Smith cannot vouch for.
          capabilities: { elicitation: { form: {} }, roots: { listChanged: true } },
          signal: attempt.signal,
          env: this.settings.env,
          // Starting can take long (npx downloads a package first), so the handshake never gets less than the default.
          timeoutMs: Math.max(config.timeoutSeconds, DEFAULT_MCP_TIMEOUT_SECONDS) * 1000,
          ...(authProvider ? { authProvider } : {}),
          onStderr: (chunk) => slot.log.write(chunk),
        },
        {
          onElicit: (params, signal) =>
            answerElicitation(params, {
              server: slot.name,
              elicitor: this.elicitor,
              timeoutMs: this.settings.elicitationTimeoutMs,
              signal,
              log: (level, text) => slot.log.push(`[${level}] ${text}`),
            }),
          listRoots: () => this.roots,
          onListsChanged: () => current() && this.emitChange(),
          onLog: (level, text) => {
            slot.log.push(`[${level}] ${text}`);
            if (current()) for (const listener of this.logListeners) listener({ server: slot.name, level, text });
          },
          onUnexpectedClose: () => {
            if (!current()) return;
            slot.connection = undefined;
            this.scheduleReconnect(slot, generation, withOutput('The server closed the connection unexpectedly', slot));
          },
        },
      );
    } catch (error) {
      if (!current()) return;
      if (this.signInPorts && config.transport.type !== 'stdio' && isSignInRequired(error)) {
        this.needsSignIn(slot, 'The server asks you to sign in.');
        return;
      }
      const message = withOutput(`Could not connect: ${messageOf(error)}`, slot);
      if (isReconnect) this.scheduleReconnect(slot, generation, message);
      else {
        slot.status = 'error';
        slot.error = message;
        this.emitChange();
      }
      return;
    } finally {
      if (slot.connecting === attempt) slot.connecting = undefined;
    }
    if (!current()) {
      await connection.close();
      return;
    }
    slot.connection = connection;
    slot.status = 'connected';
    slot.error = undefined;
    slot.reconnect = undefined;
    slot.auth = signedIn ? { state: 'signed-in' } : undefined;
    this.later(slot, this.settings.stableAfterMs, () => (slot.attempts = 0));
    this.emitChange();
  }

  private scheduleReconnect(slot: Slot, generation: number, reason: string): void {
    const max = this.settings.maxReconnectAttempts;
    for (const timer of slot.timers) clearTimeout(timer);
    slot.timers.clear();
    if (slot.attempts >= max) {
      slot.status = 'error';
      slot.error = `${reason}\nGave up after ${max} reconnect attempt${max === 1 ? '' : 's'}; restart the server to try again.`;
      slot.reconnect = undefined;
      this.emitChange();
      return;
    }
    slot.attempts++;
    const delay = Math.min(this.settings.reconnectBaseDelayMs * 2 ** (slot.attempts - 1), this.settings.reconnectMaxDelayMs);
    slot.status = 'connecting';
    slot.error = reason;
    slot.reconnect = { attempt: slot.attempts, maxAttempts: max };
    this.later(slot, delay, () => {
      if (slot.generation === generation && !this.disposed) void this.connect(slot, generation, true);
    });
    this.emitChange();
  }

  /** A remote server's stored OAuth client (only when tokens exist: without them a 401 just means "sign in"). */
  private async backgroundAuth(config: McpServerConfig): Promise<SmithOAuthProvider | undefined> {
    const ports = this.signInPorts;
    const transport = config.transport;
    if (!ports || transport.type === 'stdio' || !(await hasStoredTokens(ports.store, transport.url))) return undefined;
    // A refresh that fails ends in the SDK asking for the browser; this connection only reports it.
    return new SmithOAuthProvider({
      url: transport.url,
      store: ports.store,
      ...(transport.oauth ? { settings: transport.oauth } : {}),
      onAuthorizationUrl: () => {},
    });
  }

  /** The server wants (new) sign-in: it waits in `needs-auth`, and sign-in starts on its own the first time. */
  private needsSignIn(slot: Slot, reason: string): void {
    if (this.signInPorts?.automatic !== false && !slot.autoSignInDone) {
      slot.autoSignInDone = true;
      this.signIn(slot.name).catch(() => {});
      return;
    }
    slot.status = 'needs-auth';
    slot.auth = { state: 'needs-sign-in' };
    slot.error = reason;
    slot.reconnect = undefined;
    this.emitChange();
  }

  private later(slot: Slot, ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      slot.timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    slot.timers.add(timer);
  }

  private requireConnected(name: string): { slot: Slot; connection: McpConnection } {
    const slot = this.slots.get(name);
    if (!slot) throw new McpServerUnavailableError(this.unknownServerMessage(name));
    if (slot.status !== 'connected' || !slot.connection) throw new McpServerUnavailableError(unavailableMessage(this.snapshot(slot)));
    return { slot, connection: slot.connection };
  }

  private callError(error: unknown, slot: Slot, what: string, timeoutSeconds: number, signal: AbortSignal | undefined): Error {
    if (signal?.aborted) return error instanceof Error ? error : new Error(String(error));
    if (this.signInPorts && slot.config?.transport.type !== 'stdio' && isSignInRequired(error)) {
      // The tokens stopped working and could not be refreshed (revoked): back to signing in.
      const connection = slot.connection;
      slot.connection = undefined;
      slot.generation++;
      void connection?.close();
      this.needsSignIn(slot, 'The server no longer accepts the sign-in (the tokens were revoked or expired and could not be refreshed).');
      return new McpServerUnavailableError(`MCP server "${slot.name}" needs you to sign in again before ${what} can be used.`);
    }
    const { ErrorCode, McpError } = mcpSdk();
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new McpTimeoutError(
        `The MCP ${what} on server "${slot.name}" did not answer within ${timeoutSeconds} s (the server's timeout), so the request was cancelled. Try again with a smaller request, or ask the user to raise "timeout" for this server.`,
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return new McpServerUnavailableError(
        `MCP server "${slot.name}" closed the connection during the call to ${what}; ${describeStatus(this.snapshot(slot))}`,
      );
    }
    return new McpRequestError(`MCP server "${slot.name}" failed the call to ${what}: ${messageOf(error)}`, error instanceof McpError ? error.code : undefined);
  }

  private unknownServerMessage(name: string): string {
    const names = [...this.slots.keys()];
    return `There is no MCP server named "${name}". ${names.length > 0 ? `Configured servers: ${names.join(', ')}.` : 'No MCP servers are configured.'}`;
  }

  private snapshot(slot: Slot): McpServerSnapshot {
    const connection = slot.connection;
    return {
      name: slot.name,
      status: slot.status,
      ...(slot.error !== undefined ? { error: slot.error } : {}),
      source: slot.config?.source ?? slot.invalid?.file ?? '',
      ...(slot.config ? { config: slot.config } : {}),
      ...(connection ? { transport: connection.kind } : {}),
      tools: connection?.tools ?? [],
      resources: connection?.resources ?? [],
      resourceTemplates: connection?.resourceTemplates ?? [],
      prompts: connection?.prompts ?? [],
      ...(connection?.instructions ? { instructions: connection.instructions } : {}),
      ...(connection?.serverInfo ? { serverInfo: connection.serverInfo } : {}),
      ...(slot.reconnect ? { reconnect: { ...slot.reconnect } } : {}),
      ...(slot.auth ? { auth: { ...slot.auth } } : {}),
    };
  }

  private emitChange(): void {
    if (this.disposed) return;
    for (const listener of this.changeListeners) listener();
  }
}

/** Adds a stdio server's last output lines, which usually say why it failed (a remote server's log is only our own transport errors). */
function withOutput(message: string, slot: Slot): string {
  if (slot.config?.transport.type !== 'stdio') return message;
  const tail = slot.log.tail(5);
  return tail ? `${message}\nLast server output:\n${tail}` : message;
}
