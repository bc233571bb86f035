import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthSettings } from './mcp-config-types.js';
import type { McpCredentialStore } from './mcp-credential-store.js';

/** What Smith keeps for one server URL: the client it registered, the tokens, and what discovery found. */
export interface StoredOAuth {
  readonly client?: OAuthClientInformationMixed;
  readonly tokens?: OAuthTokens;
  readonly discovery?: OAuthDiscoveryState;
}

/** The redirect URI a background connection declares: it never receives a browser, only refreshes tokens. */
const BACKGROUND_REDIRECT = 'http://127.0.0.1/callback';

/** Raised when a server asks for sign-in but publishes no OAuth metadata to sign in with. */
export class McpNoOAuthMetadataError extends Error {}

/** The credential store's key for a server URL (tokens belong to the URL they were issued for). */
export function oauthStoreKey(url: string): string {
  return `smith.mcpOAuth.${new URL(url).href}`;
}

/** Options for one server's OAuth client. */
interface SmithOAuthProviderOptions {
  readonly url: string;
  readonly store: McpCredentialStore;
  readonly settings?: McpOAuthSettings;
  /** The loopback callback of a sign-in under way; absent for a background connection. */
  readonly redirectUrl?: string;
  /** Called with the authorization URL when the SDK needs the user in a browser. */
  onAuthorizationUrl(url: URL): void;
}

/**
 * The MCP SDK's OAuthClientProvider for one server: it keeps the dynamically registered client, the
 * tokens and the discovery state in the credential store (SecretStorage, or the CLI's 0600 file), a
 * configured client id/secret in place of registration, and the PKCE verifier and `state` of the
 * sign-in under way in memory. The SDK's auth() does the protocol: discovery (RFC 9728, RFC 8414 /
 * OIDC), registration (RFC 7591), the PKCE authorization-code grant and refreshes.
 */
export class SmithOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  /** The `state` sent with the last authorization URL; the callback must bring it back. */
  expectedState: string | undefined;
  private readonly key: string;

  constructor(private readonly options: SmithOAuthProviderOptions) {
    this.key = oauthStoreKey(options.url);
  }

  get redirectUrl(): string {
    return this.options.redirectUrl ?? BACKGROUND_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    const secret = this.options.settings?.clientSecret;
    return {
      client_name: 'Smith',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: secret ? 'client_secret_post' : 'none',
      ...(this.options.settings?.scope ? { scope: this.options.settings.scope } : {}),
    };
  }

  state(): string {
    this.expectedState = randomBytes(24).toString('base64url');
    return this.expectedState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const configured = this.options.settings?.clientId;
    if (configured) {
      const stored = (await this.read()).client;
      // The SDK stamps the client with the issuer it was used with; keep that stamp for the configured id.
      const issuer = stored?.client_id === configured ? (stored as { issuer?: string }).issuer : undefined;
      return {
        client_id: configured,
        ...(this.options.settings?.clientSecret ? { client_secret: this.options.settings.clientSecret } : {}),
        ...(issuer ? { issuer } : {}),
      };
    }
    const client = (await this.read()).client;
    // A sign-in registers again when its callback port differs from the registered one: not every
    // authorization server lets a loopback redirect change its port (RFC 8252 §7.3 says it should).
    const registered = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    if (this.options.redirectUrl && Array.isArray(registered) && !registered.includes(this.options.redirectUrl)) return undefined;
    return client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    // A configured secret stays in the user's settings, never in the store.
    const { client_secret: _secret, ...withoutSecret } = client as OAuthClientInformationMixed & { client_secret?: string };
    await this.update({ client: this.options.settings?.clientId ? withoutSecret : client });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.read()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.update({ tokens });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.options.onAuthorizationUrl(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('No sign-in is under way for this server (no PKCE verifier).');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    const current = await this.read();
    const next: StoredOAuth = {
      ...(scope === 'all' || scope === 'client' ? {} : current.client ? { client: current.client } : {}),
      ...(scope === 'all' || scope === 'tokens' ? {} : current.tokens ? { tokens: current.tokens } : {}),
      ...(scope === 'all' || scope === 'discovery' ? {} : current.discovery ? { discovery: current.discovery } : {}),
    };
    await this.write(next);
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    if (!state.authorizationServerMetadata) {
      throw new McpNoOAuthMetadataError(
        `the server asks for sign-in (HTTP 401) but publishes no OAuth metadata: neither protected-resource metadata (RFC 9728) naming an authorization server, nor authorization-server metadata (RFC 8414 / OpenID Connect discovery) at ${state.authorizationServerUrl}. Give it the credentials it expects in the entry's "headers" instead.`,
      );
    }
    await this.update({ discovery: state });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.read()).discovery;
  }

  private read(): Promise<StoredOAuth> {
    return readStoredOAuth(this.options.store, this.options.url);
  }

  private async update(change: Partial<StoredOAuth>): Promise<void> {
    await this.write({ ...(await this.read()), ...change });
  }

  private async write(value: StoredOAuth): Promise<void> {
    if (!value.client && !value.tokens && !value.discovery) await this.options.store.delete(this.key);
    else await this.options.store.store(this.key, JSON.stringify(value));
  }
}

/** What is stored for this server URL; a damaged entry reads as nothing (the next sign-in replaces it). */
export async function readStoredOAuth(store: McpCredentialStore, url: string): Promise<StoredOAuth> {
  const text = await store.get(oauthStoreKey(url));
  if (!text) return {};
  try {
    const data = JSON.parse(text) as unknown;
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as StoredOAuth) : {};
  } catch {
    return {};
  }
}

/** True when Smith holds tokens for this server URL. */
export async function hasStoredTokens(store: McpCredentialStore, url: string): Promise<boolean> {
  return Boolean((await readStoredOAuth(store, url)).tokens?.access_token);
}

/** Forgets everything stored for this server URL: tokens, registered client and discovery. */
export async function forgetOAuth(store: McpCredentialStore, url: string): Promise<void> {
  await store.delete(oauthStoreKey(url));
}
