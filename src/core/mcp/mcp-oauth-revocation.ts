import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthSettings } from './mcp-config-types.js';
import { SmithOAuthProvider, type StoredOAuth } from './mcp-oauth-provider.js';
import { mcpSdk } from './mcp-sdk-loader.js';
import { messageOf } from './mcp-transport.js';

/** How long sign-out waits for the revocation endpoint, both requests together, by default. */
export const DEFAULT_REVOCATION_TIMEOUT_MS = 10_000;

/** The token types RFC 7009 names, in the order they are revoked (the refresh token first: revoking it may end the access token too). */
type RevokedTokenType = 'refresh_token' | 'access_token';

/** What asking the authorization server to revoke the tokens came to. */
export type McpRevocationOutcome =
  | { readonly kind: 'revoked'; readonly tokens: readonly RevokedTokenType[] }
  /** No tokens were stored: nothing to revoke. */
  | { readonly kind: 'nothing-stored' }
  /** The authorization server's metadata names no `revocation_endpoint`. */
  | { readonly kind: 'not-offered' }
  | { readonly kind: 'failed'; readonly reason: string };

/** What revoking needs besides the stored sign-in. */
interface RevocationOptions {
  readonly url: string;
  readonly settings?: McpOAuthSettings;
  readonly timeoutMs: number;
}

/**
 * Asks the authorization server to revoke a sign-in's tokens (RFC 7009): one POST per token to the
 * `revocation_endpoint` of the metadata found at sign-in, with `token_type_hint`, the client
 * authenticated as the SDK authenticates it at the token endpoint. `stored` is read before the
 * local copy is removed, so that removal never depends on the authorization server. Never throws:
 * a failure, a redirect or no answer within `timeoutMs` is the outcome `failed`.
 */
export async function revokeOAuthTokens(stored: StoredOAuth, options: RevocationOptions): Promise<McpRevocationOutcome> {
  const tokens = stored.tokens;
  const pending: [RevokedTokenType, string][] = [];
  if (tokens?.refresh_token) pending.push(['refresh_token', tokens.refresh_token]);
  if (tokens?.access_token) pending.push(['access_token', tokens.access_token]);
  if (pending.length === 0) return { kind: 'nothing-stored' };
  const metadata = stored.discovery?.authorizationServerMetadata;
  // RFC 8414 names it; OpenID Connect discovery metadata may carry it too.
  const endpoint = (metadata as { revocation_endpoint?: unknown } | undefined)?.revocation_endpoint;
  if (!metadata || endpoint === undefined || endpoint === null || endpoint === '') return { kind: 'not-offered' };
  let target: URL;
  try {
    if (typeof endpoint !== 'string') throw new Error('it is not a string');
    target = new URL(endpoint);
    if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error(`${target.protocol} is not http(s)`);
  } catch (error) {
    return { kind: 'failed', reason: `the revocation endpoint ${JSON.stringify(endpoint)} is not a usable address (${messageOf(error)})` };
  }
  // The client as the token requests used it: the configured id and secret, or the registered
  // client (read from `stored`, the local copy being gone by now).
  const client = await new SmithOAuthProvider({
    url: options.url,
    store: { get: async () => JSON.stringify(stored), store: async () => {}, delete: async () => {} },
    ...(options.settings ? { settings: options.settings } : {}),
    onAuthorizationUrl: () => {},
  }).clientInformation();
  if (!client) return { kind: 'failed', reason: 'no client is stored to authenticate the revocation with' };
  const method = mcpSdk().selectClientAuthMethod(client, metadata.token_endpoint_auth_methods_supported ?? []);
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const revoked: RevokedTokenType[] = [];
  const failures: string[] = [];
  for (const [hint, token] of pending) {
    try {
      await revokeOne(target, token, hint, client, method, deadline);
      revoked.push(hint);
    } catch (error) {
      const reason = deadline.aborted
        ? `the revocation endpoint did not answer within ${Math.round(options.timeoutMs / 1000)} s`
        : `${hint.replace('_', ' ')}: ${messageOf(error)}`;
      failures.push(reason);
      if (deadline.aborted) break;
    }
  }
  return failures.length === 0 ? { kind: 'revoked', tokens: revoked } : { kind: 'failed', reason: failures.join('; ') };
}

async function revokeOne(
  endpoint: URL,
  token: string,
  hint: RevokedTokenType,
  client: OAuthClientInformationMixed,
  method: string,
  signal: AbortSignal,
): Promise<void> {
  const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' });
  const body = new URLSearchParams({ token, token_type_hint: hint });
  const secret = (client as { client_secret?: string }).client_secret;
  if (method === 'client_secret_basic' && secret) {
    headers.set('Authorization', `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString('base64')}`);
  } else {
    body.set('client_id', client.client_id);
    if (method === 'client_secret_post' && secret) body.set('client_secret', secret);
  }
  // A redirect is not followed: the token would go to an address the metadata did not name.
  const response = await fetch(endpoint, { method: 'POST', headers, body, redirect: 'manual', signal });
  if (response.status === 200) {
    await response.body?.cancel();
    return;
  }
  throw new Error(`HTTP ${response.status}${await errorOf(response)}`);
}

/** The OAuth error of a refused request (RFC 6749 §5.2), or the start of its body. */
async function errorOf(response: Response): Promise<string> {
  const text = await startOf(response, 4096);
  try {
    const data = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    if (typeof data.error === 'string') return ` ${data.error}${typeof data.error_description === 'string' ? `: ${data.error_description}` : ''}`;
  } catch {
    // Not JSON: the text says what it says.
  }
  const line = text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return line ? ` ${line}` : '';
}

/** The first `limit` bytes of a body, as text (an error page can be endless). */
async function startOf(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // What arrived before the failure is enough to describe it.
  } finally {
    void reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

/** The outcome in words, for the panel and the CLI. */
export function describeRevocation(outcome: McpRevocationOutcome): string {
  switch (outcome.kind) {
    case 'revoked':
      return 'The authorization server revoked the tokens, and they were removed from this machine.';
    case 'nothing-stored':
      return 'No tokens were stored.';
    case 'not-offered':
      return 'The tokens were removed from this machine. The authorization server offers no revocation endpoint, so they stay valid there until they expire.';
    case 'failed':
      return `The tokens were removed from this machine, but revoking them at the authorization server failed (${outcome.reason}); they may stay valid there until they expire.`;
  }
}
