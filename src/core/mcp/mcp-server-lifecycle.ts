import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { DEFAULT_MCP_TIMEOUT_SECONDS, type McpServerConfig } from './mcp-config.js';
import { McpConnection } from './mcp-connection.js';
import { answerElicitation } from './mcp-elicitation.js';
import { withOutput, type HubContext, type HubSlot } from './mcp-hub-state.js';
import { isSignInRequired, messageOf } from './mcp-transport.js';

/** What the lifecycle asks of sign-in: the stored tokens to connect with, and what to do when the server wants a sign-in. */
export interface LifecycleAuth {
  /** The OAuth client of a remote server that holds tokens; undefined connects without one. */
  authProvider(config: McpServerConfig): Promise<OAuthClientProvider | undefined>;
  /** The server answered 401: it waits for a sign-in (or one starts). */
  signInRequired(slot: HubSlot, reason: string): void;
}

/**
 * Starts, stops and reconnects the servers' connections: one attempt per generation of a slot, a
 * crash reconnected with backoff, and what a task waits for before a request.
 */
export class McpServerLifecycle {
  constructor(
    private readonly context: HubContext,
    private readonly auth: LifecycleAuth,
  ) {}

  /** Stops whatever runs and starts the slot's configuration afresh (or shows it disabled). */
  async start(slot: HubSlot): Promise<void> {
    await this.stop(slot);
    const config = slot.config!;
    slot.error = undefined;
    slot.reconnect = undefined;
    slot.auth = undefined;
    if (slot.disabledOverride ?? config.disabled) {
      slot.status = 'disabled';
      this.context.emitChange();
      return;
    }
    slot.status = 'connecting';
    slot.waitUntil = Date.now() + config.timeoutSeconds * 1000;
    this.context.emitChange();
    await this.connect(slot, slot.generation, false);
  }

  /** Ends the slot's connection, its attempt under way and its timers; older work is then ignored. */
  async stop(slot: HubSlot): Promise<void> {
    slot.generation++;
    slot.connecting?.abort();
    slot.connecting = undefined;
    for (const timer of slot.timers) clearTimeout(timer);
    slot.timers.clear();
    const connection = slot.connection;
    slot.connection = undefined;
    await connection?.close();
  }

  /** One connection attempt of `generation`; a failure is the slot's error, or a scheduled reconnect. */
  async connect(slot: HubSlot, generation: number, isReconnect: boolean): Promise<void> {
    const context = this.context;
    const config = slot.config!;
    const current = () => slot.generation === generation && !context.isDisposed();
    let connection: McpConnection;
    let signedIn = false;
    const attempt = new AbortController();
    slot.connecting = attempt;
    try {
      const authProvider = await this.auth.authProvider(config);
      signedIn = authProvider !== undefined;
      if (!current()) return;
      connection = await McpConnection.open(
        config,
        {
          clientInfo: context.settings.clientInfo,
          // Form-mode elicitation only: a URL-mode request would send the user to a web page Smith cannot vouch for.
          capabilities: { elicitation: { form: {} }, roots: { listChanged: true } },
          signal: attempt.signal,
          env: context.settings.env,
          // Starting can take long (npx downloads a package first), so the handshake never gets less than the default.
          timeoutMs: Math.max(config.timeoutSeconds, DEFAULT_MCP_TIMEOUT_SECONDS) * 1000,
          ...(authProvider ? { authProvider } : {}),
          onStderr: (chunk) => slot.log.write(chunk),
        },
        {
          onElicit: (params, signal) =>
            answerElicitation(params, {
              server: slot.name,
              elicitor: context.elicitor(),
              timeoutMs: context.settings.elicitationTimeoutMs,
              signal,
              log: (level, text) => slot.log.push(`[${level}] ${text}`),
            }),
          listRoots: () => context.roots(),
          onListsChanged: () => current() && context.emitChange(),
          onLog: (level, text) => {
            slot.log.push(`[${level}] ${text}`);
            if (current()) context.emitLog({ server: slot.name, level, text });
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
      if (context.signInPorts && config.transport.type !== 'stdio' && isSignInRequired(error)) {
        this.auth.signInRequired(slot, 'The server asks you to sign in.');
        return;
      }
      const message = withOutput(`Could not connect: ${messageOf(error)}`, slot);
      if (isReconnect) this.scheduleReconnect(slot, generation, message);
      else {
        slot.status = 'error';
        slot.error = message;
        context.emitChange();
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
    this.later(slot, context.settings.stableAfterMs, () => (slot.attempts = 0));
    context.emitChange();
  }

  /**
   * Resolves once no server is still making its first connection within its `timeout`, counted
   * from when it started (see McpHub.whenReady).
   */
  async whenReady(onChange: (listener: () => void) => () => void, signal?: AbortSignal): Promise<void> {
    const context = this.context;
    for (;;) {
      const now = Date.now();
      const deadlines = [...context.slots.values()]
        .filter((slot) => slot.status === 'connecting' && (slot.waitUntil ?? 0) > now)
        .map((slot) => slot.waitUntil!);
      if (deadlines.length === 0 || context.isDisposed() || signal?.aborted) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          off();
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(...deadlines) - now);
        const off = onChange(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Servers still making their first connection after a task stopped waiting for them, by name. */
  stillConnecting(): string[] {
    const now = Date.now();
    return [...this.context.slots.values()]
      .filter((slot) => slot.status === 'connecting' && !slot.reconnect && (slot.waitUntil ?? 0) <= now)
      .map((slot) => slot.name);
  }

  private scheduleReconnect(slot: HubSlot, generation: number, reason: string): void {
    const context = this.context;
    const max = context.settings.maxReconnectAttempts;
    for (const timer of slot.timers) clearTimeout(timer);
    slot.timers.clear();
    if (slot.attempts >= max) {
      slot.status = 'error';
      slot.error = `${reason}\nGave up after ${max} reconnect attempt${max === 1 ? '' : 's'}; restart the server to try again.`;
      slot.reconnect = undefined;
      context.emitChange();
      return;
    }
    slot.attempts++;
    const delay = Math.min(context.settings.reconnectBaseDelayMs * 2 ** (slot.attempts - 1), context.settings.reconnectMaxDelayMs);
    slot.status = 'connecting';
    slot.error = reason;
    slot.reconnect = { attempt: slot.attempts, maxAttempts: max };
    this.later(slot, delay, () => {
      if (slot.generation === generation && !context.isDisposed()) void this.connect(slot, generation, true);
    });
    context.emitChange();
  }

  private later(slot: HubSlot, ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      slot.timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    slot.timers.add(timer);
  }
}
