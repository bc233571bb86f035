import type { McpServerConfig } from './mcp-config.js';
import type { McpCredentialStore } from './mcp-credential-store.js';
import { McpSignInError, startLoopbackCallback } from './mcp-oauth-callback.js';
import { SmithOAuthProvider } from './mcp-oauth-provider.js';
import { mcpSdk } from './mcp-sdk-loader.js';
import { connectMcpClient, isSignInRequired, messageOf } from './mcp-transport.js';

/** What a host gives the hub so that remote servers can ask the user to sign in. */
export interface McpSignInPorts {
  /** Where tokens and registered clients are kept (SecretStorage, or the CLI's 0600 file). */
  readonly store: McpCredentialStore;
  /** Shows the user the authorization URL: VS Code opens the browser, the CLI prints it on stderr. */
  openBrowser(url: string, server: string): void | Promise<void>;
  /** Starts sign-in on its own the first time a server asks for it (default true); false waits for signIn(). */
  readonly automatic?: boolean;
  /** How long a sign-in waits for the browser to come back (default 5 minutes). */
  readonly timeoutMs?: number;
}

/** How long a sign-in waits for the user by default. */
export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** One sign-in's inputs. */
interface SignInOptions {
  readonly ports: McpSignInPorts;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly signal: AbortSignal;
  /** Called with the authorization URL once it is known (the panel shows it). */
  onAuthorizationUrl(url: string): void;
}

/**
 * Signs in to a remote server with the authorization-code flow and PKCE, the SDK doing the
 * protocol: a connection attempt with an interactive provider runs discovery and registration and
 * stops at the authorization URL (or succeeds at once when stored tokens are still good or refresh);
 * the browser goes to that URL; the loopback callback receives the code (its `state` checked); the
 * SDK's auth() exchanges it and the provider stores the tokens. Throws McpSignInError (timed out,
 * refused, cancelled) or the server's error; nothing is left listening afterwards.
 */
export async function signInToMcpServer(config: McpServerConfig, options: SignInOptions): Promise<void> {
  const transport = config.transport;
  if (transport.type === 'stdio') throw new McpSignInError(`"${config.name}" is a local server; only remote servers sign in.`);
  const callback = await startLoopbackCallback(config.name, transport.oauth?.callbackPort);
  try {
    let authorizationUrl: URL | undefined;
    const provider = new SmithOAuthProvider({
      url: transport.url,
      store: options.ports.store,
      ...(transport.oauth ? { settings: transport.oauth } : {}),
      redirectUrl: callback.redirectUrl,
      onAuthorizationUrl: (url) => {
        authorizationUrl = url;
      },
    });
    try {
      const connected = await connectMcpClient(transport, {
        clientInfo: options.clientInfo,
        env: {},
        timeoutMs: Math.max(config.timeoutSeconds, 60) * 1000,
        signal: options.signal,
        authProvider: provider,
        setup: () => {},
        onStderr: () => {},
      });
      // Stored tokens were good, or were refreshed without the browser.
      await connected.client.close().catch(() => {});
      return;
    } catch (error) {
      if (!authorizationUrl || !isSignInRequired(error)) throw error;
    }
    const timeoutMs = options.ports.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS;
    const answer = callback.waitForCode(() => provider.expectedState, timeoutMs, options.signal);
    // Not awaited as a whole: opening a browser may wait on a dialog; the answer is what counts.
    answer.catch(() => {});
    options.onAuthorizationUrl(authorizationUrl.href);
    await options.ports.openBrowser(authorizationUrl.href, config.name);
    const { code, finish } = await answer;
    try {
      const result = await mcpSdk().auth(provider, { serverUrl: transport.url, authorizationCode: code });
      if (result !== 'AUTHORIZED') throw new Error('the authorization server did not issue tokens');
      finish({ ok: true });
    } catch (error) {
      const message = `the token endpoint refused the authorization code: ${messageOf(error)}`;
      finish({ ok: false, message });
      throw new McpSignInError(message);
    }
  } finally {
    await callback.close();
  }
}
