import type { McpServerConfig } from './mcp-config.js';
import { McpServerUnavailableError } from './mcp-errors.js';
import { unknownServerMessage, type HubContext, type HubSlot } from './mcp-hub-state.js';
import { forgetOAuth, hasStoredTokens, readStoredOAuth, SmithOAuthProvider } from './mcp-oauth-provider.js';
import { describeRevocation, revokeOAuthTokens, type McpRevocationOutcome } from './mcp-oauth-revocation.js';
import type { McpServerStatus } from './mcp-server-snapshot.js';
import type { McpServerLifecycle } from './mcp-server-lifecycle.js';
import { signInToMcpServer } from './mcp-sign-in.js';
import { messageOf } from './mcp-transport.js';

/** What signing out did: the revocation at the authorization server, and the same in words. */
export interface McpSignOutResult {
  readonly revocation: McpRevocationOutcome;
  readonly message: string;
}

/**
 * The servers' OAuth as the hub sees it: which connection carries stored tokens, when sign-in
 * starts on its own, signing in (the browser, then a reconnect) and signing out.
 */
export class McpServerAuth {
  constructor(
    private readonly context: HubContext,
    private readonly lifecycle: () => McpServerLifecycle,
  ) {}

  /** A remote server's stored OAuth client (only when tokens exist: without them a 401 just means "sign in"). */
  async authProvider(config: McpServerConfig): Promise<SmithOAuthProvider | undefined> {
    const ports = this.context.signInPorts;
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
  signInRequired(slot: HubSlot, reason: string): void {
    if (this.context.signInPorts?.automatic !== false && !slot.autoSignInDone) {
      slot.autoSignInDone = true;
      this.signIn(slot.name).catch(() => {});
      return;
    }
    slot.status = 'needs-auth';
    slot.auth = { state: 'needs-sign-in' };
    slot.error = reason;
    slot.reconnect = undefined;
    this.context.emitChange();
  }

  /** See McpHub.signIn. */
  async signIn(name: string): Promise<void> {
    const context = this.context;
    const slot = context.slots.get(name);
    if (!slot?.config) throw new McpServerUnavailableError(unknownServerMessage(context, name));
    const ports = context.signInPorts;
    if (!ports) throw new McpServerUnavailableError('Sign-in is not available here.');
    if (slot.config.transport.type === 'stdio') throw new McpServerUnavailableError(`"${name}" is a local (stdio) server; only remote servers sign in.`);
    if (slot.status === 'disabled') throw new McpServerUnavailableError(`"${name}" is disabled; enable it first.`);
    // Set before anything is awaited, so a task waiting for the server sees it still connecting.
    slot.status = 'connecting';
    slot.error = undefined;
    slot.reconnect = undefined;
    slot.auth = { state: 'signing-in' };
    await this.lifecycle().stop(slot);
    const generation = slot.generation;
    const config = slot.config;
    const current = () => slot.generation === generation && !context.isDisposed();
    const attempt = new AbortController();
    slot.connecting = attempt;
    context.emitChange();
    try {
      await signInToMcpServer(config, {
        ports,
        clientInfo: context.settings.clientInfo,
        signal: attempt.signal,
        onAuthorizationUrl: (url) => {
          if (!current()) return;
          slot.auth = { state: 'signing-in', url };
          context.emitChange();
        },
      });
    } catch (error) {
      if (current()) {
        slot.status = 'needs-auth';
        slot.auth = { state: 'needs-sign-in' };
        slot.error = `Sign-in failed: ${messageOf(error)}`;
        context.emitChange();
      }
      throw new McpServerUnavailableError(`Sign-in to MCP server "${name}" failed: ${messageOf(error)}`);
    } finally {
      if (slot.connecting === attempt) slot.connecting = undefined;
    }
    if (!current()) return;
    slot.auth = undefined;
    slot.attempts = 0;
    await this.lifecycle().connect(slot, generation, false);
  }

  /** See McpHub.signOut. */
  async signOut(name: string): Promise<McpSignOutResult> {
    const context = this.context;
    const slot = context.slots.get(name);
    if (!slot?.config) throw new McpServerUnavailableError(unknownServerMessage(context, name));
    const transport = slot.config.transport;
    const ports = context.signInPorts;
    if (!ports || transport.type === 'stdio') throw new McpServerUnavailableError(`"${name}" has no sign-in to sign out of.`);
    // The connection ends first, so no refresh can store new tokens behind the sign-out.
    await this.lifecycle().stop(slot);
    slot.status = 'connecting';
    slot.auth = undefined;
    slot.error = undefined;
    context.emitChange();
    // The local copy goes before the authorization server is asked, so a server that fails or
    // never answers (or Smith ending meanwhile) cannot keep the tokens on this machine.
    const stored = await readStoredOAuth(ports.store, transport.url);
    await forgetOAuth(ports.store, transport.url);
    const revocation = await revokeOAuthTokens(stored, {
      url: transport.url,
      ...(transport.oauth ? { settings: transport.oauth } : {}),
      timeoutMs: context.settings.revocationTimeoutMs,
    });
    const message = describeRevocation(revocation);
    // Signing out must not open the browser again on its own.
    slot.autoSignInDone = true;
    slot.attempts = 0;
    await this.lifecycle().start(slot);
    // (Read back as a plain status: start() changed it.)
    if ((slot.status as McpServerStatus) === 'needs-auth' && !context.isDisposed()) {
      slot.error = `Signed out. ${message}`;
      context.emitChange();
    }
    return { revocation, message };
  }
}
