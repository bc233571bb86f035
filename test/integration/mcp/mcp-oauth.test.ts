// OAuth sign-in against a real authorization server: the MCP SDK's own router (metadata, dynamic
// registration, PKCE authorization code, refresh, revocation) in front of the fixture MCP server.
// The "browser" is an HTTP client that follows the authorization URL, approves the consent page and
// follows the redirect to Smith's loopback callback.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { runMcpReplCommand } from '../../../src/cli/mcp-repl-command.js';
import { createStyle } from '../../../src/cli/style.js';
import { FileCredentialStore } from '../../../src/core/mcp/mcp-credential-store.js';
import { McpHub } from '../../../src/core/mcp/mcp-hub.js';
import { oauthStoreKey } from '../../../src/core/mcp/mcp-oauth-provider.js';
import type { McpSignInPorts } from '../../../src/core/mcp/mcp-sign-in.js';
import { approveInBrowser, startOAuthFixture, type OAuthFixture } from '../../fixtures/mcp/oauth-fixture.js';
import { configOf, eventually, waitForStatus } from '../../fixtures/mcp/mcp-test-support.js';

type Browser = (url: string) => Promise<void>;

describe('MCP OAuth sign-in against a real authorization server', () => {
  let storage: string;
  let fixture: OAuthFixture | undefined;
  const hubs: McpHub[] = [];
  const opened: string[] = [];
  const pages: { status: number; body: string }[] = [];
  beforeEach(() => {
    storage = mkdtempSync(join(tmpdir(), 'smith-oauth-'));
    opened.length = 0;
    pages.length = 0;
  });
  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((hub) => hub.dispose()));
    await fixture?.close();
    fixture = undefined;
    rmSync(storage, { recursive: true, force: true });
  });

  /** A browser that approves the consent page; what the callback page said is kept in `pages`. */
  const approving: Browser = async (url) => {
    pages.push(await approveInBrowser(url));
  };

  function hubWith(browser: Browser, ports: Partial<McpSignInPorts> = {}): McpHub {
    const hub = new McpHub({
      signIn: {
        store: new FileCredentialStore(storage),
        openBrowser: (url) => {
          opened.push(url);
          // The browser runs on its own, as a real one does; the sign-in waits for its callback.
          browser(url).catch((error: unknown) => pages.push({ status: 0, body: String(error) }));
        },
        ...ports,
      },
    });
    hubs.push(hub);
    return hub;
  }

  const credentials = () => JSON.parse(readFileSync(join(storage, 'mcp-credentials.json'), 'utf8')) as { credentials: Record<string, string> };

  test('Streamable HTTP: a 401 starts sign-in (discovery, registration, PKCE), the tokens are stored 0600, and tools work', async () => {
    fixture = await startOAuthFixture();
    const hub = hubWith(approving);
    await hub.applyConfig(configOf({ remote: { url: fixture.mcpUrl } }));
    await waitForStatus(hub, 'remote', 'connected', 30_000);
    assert.equal(opened.length, 1, 'the browser opened once');
    const authorization = new URL(opened[0]!);
    assert.equal(authorization.searchParams.get('code_challenge_method'), 'S256');
    assert.match(authorization.searchParams.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.ok((authorization.searchParams.get('state') ?? '').length >= 20, 'a state accompanies the request');
    assert.deepEqual(fixture.provider.resources, [`${fixture.origin}/`], 'the resource indicator names the protected resource');
    assert.equal(fixture.provider.clientsStore.registrations, 1);
    assert.equal(pages[0]?.status, 200);
    assert.match(pages[0]!.body, /Signed in to MCP server &#34;remote&#34;/);
    assert.equal(hub.server('remote')?.auth?.state, 'signed-in');
    const result = await hub.callTool('remote', 'add', { a: 2, b: 3 });
    assert.deepEqual(result.content, [{ type: 'text', text: '5' }]);
    assert.ok(
      fixture.mcpAuthorizations.some((header) => /^Bearer \S+$/.test(header ?? '')),
      'requests carry the bearer token',
    );
    const file = join(storage, 'mcp-credentials.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const stored = JSON.parse(credentials().credentials[oauthStoreKey(fixture.mcpUrl)]!) as { tokens: { access_token: string; refresh_token: string } };
    assert.ok(stored.tokens.access_token && stored.tokens.refresh_token, 'both tokens are stored');
    // Smith starting again: the stored tokens are used, no browser.
    const again = hubWith(approving);
    await again.applyConfig(configOf({ remote: { url: fixture.mcpUrl } }));
    await waitForStatus(again, 'remote', 'connected', 30_000);
    assert.equal(opened.length, 1, 'a second start opened the browser');
  });

  test('an expired access token is refreshed silently; a revoked refresh token goes back to "needs sign-in", and signing in again works', async () => {
    fixture = await startOAuthFixture();
    const hub = hubWith(approving);
    await hub.applyConfig(configOf({ remote: { url: fixture.mcpUrl } }));
    await waitForStatus(hub, 'remote', 'connected', 30_000);
    fixture.provider.expireAccessTokens();
    assert.deepEqual((await hub.callTool('remote', 'add', { a: 1, b: 1 })).content, [{ type: 'text', text: '2' }]);
    assert.deepEqual(fixture.provider.grants, ['authorization_code', 'refresh_token']);
    assert.equal(opened.length, 1, 'a refresh must not open the browser');
    fixture.provider.revokeEverything();
    await assert.rejects(hub.callTool('remote', 'add', { a: 1, b: 1 }), /needs you to sign in again/);
    await waitForStatus(hub, 'remote', 'needs-auth');
    assert.equal(hub.server('remote')?.auth?.state, 'needs-sign-in');
    assert.match(hub.server('remote')?.error ?? '', /no longer accepts the sign-in/);
    assert.ok(fixture.provider.grants.includes('refresh_token refused'));
    assert.equal(opened.length, 1, 'after the first sign-in, the browser opens only when asked');
    await hub.signIn('remote');
    assert.equal(hub.server('remote')?.status, 'connected');
    assert.equal(opened.length, 2);
    assert.deepEqual((await hub.callTool('remote', 'add', { a: 20, b: 22 })).content, [{ type: 'text', text: '42' }]);
  });

  test('sign-out forgets the tokens and the client; the server then needs sign-in and no browser opens by itself', async () => {
    fixture = await startOAuthFixture();
    const hub = hubWith(approving);
    await hub.applyConfig(configOf({ remote: { url: fixture.mcpUrl } }));
    await waitForStatus(hub, 'remote', 'connected', 30_000);
    await hub.signOut('remote');
    assert.equal(hub.server('remote')?.status, 'needs-auth');
    assert.equal(credentials().credentials[oauthStoreKey(fixture.mcpUrl)], undefined);
    assert.equal(opened.length, 1);
  });

  /** The stored tokens of a server URL, read from the credentials file. */
  const storedTokens = (url: string) =>
    (JSON.parse(credentials().credentials[oauthStoreKey(url)]!) as { tokens: { access_token: string; refresh_token: string } }).tokens;

  test('sign-out revokes the refresh token, then the access token, at the revocation endpoint (RFC 7009), authenticated as the token requests were', async () => {
    fixture = await startOAuthFixture();
    const hub = hubWith(approving);
    await hub.applyConfig(configOf({ remote: { url: fixture.mcpUrl } }));
    await waitForStatus(hub, 'remote', 'connected', 30_000);
    const tokens = storedTokens(fixture.mcpUrl);
    const registered = [...fixture.provider.clientsStore.clients.keys()];
    const result = await hub.signOut('remote');
    assert.deepEqual(result.revocation, { kind: 'revoked', tokens: ['refresh_token', 'access_token'] });
    assert.deepEqual(
      fixture.revocations.map(({ token, tokenTypeHint, kind, clientId, clientAuth }) => ({ token, tokenTypeHint, kind, clientId, clientAuth })),
      [
        { token: tokens.refresh_token, tokenTypeHint: 'refresh_token', kind: 'refresh', clientId: registered[0], clientAuth: 'none' },
        { token: tokens.access_token, tokenTypeHint: 'access_token', kind: 'access', clientId: registered[0], clientAuth: 'none' },
      ],
    );
    assert.equal(fixture.provider.kindOf(tokens.access_token), 'unknown', 'the access token no longer works at the server');
    assert.equal(fixture.provider.kindOf(tokens.refresh_token), 'unknown', 'the refresh token no longer works at the server');
    assert.equal(credentials().credentials[oauthStoreKey(fixture.mcpUrl)], undefined);
    assert.equal(hub.server('remote')?.status, 'needs-auth');
    assert.match(hub.server('remote')?.error ?? '', /^Signed out\. The authorization server revoked the tokens/);
    await assert.rejects(hub.callTool('remote', 'add', { a: 1, b: 1 }), /needs you to sign in/);
    assert.equal(opened.length, 1, 'signing out opens no browser');
  });

  test('a client with a configured secret revokes with that secret (client_secret_post, as at the token endpoint)', async () => {
    const port = await freePort();
    fixture = await startOAuthFixture({
      clients: [configuredClient(port)],
    });
    const hub = hubWith(approving, { automatic: false });
    await hub.applyConfig(
      configOf({ configured: { url: fixture.mcpUrl, oauth: { clientId: 'smith-configured', clientSecret: 'configured-secret', callbackPort: port } } }),
    );
    await waitForStatus(hub, 'configured', 'needs-auth', 30_000);
    await hub.signIn('configured');
    const result = await hub.signOut('configured');
    assert.equal(result.revocation.kind, 'revoked');
    assert.deepEqual(
      fixture.revocations.map(({ clientId, clientSecret, clientAuth }) => ({ clientId, clientSecret, clientAuth })),
      Array(2).fill({ clientId: 'smith-configured', clientSecret: 'configured-secret', clientAuth: 'client_secret_post' }),
    );
  });

  test('an authorization server without a revocation endpoint: sign-out removes the tokens and says they stay valid there', async () => {
    fixture = await startOAuthFixture({ revocation: 'absent' });
    const hub = hubWith(approving);
    await hub.applyConfig(configOf({ remote: { url: fixture.mcpUrl } }));
    await waitForStatus(hub, 'remote', 'connected', 30_000);
    const tokens = storedTokens(fixture.mcpUrl);
    const result = await hub.signOut('remote');
    assert.deepEqual(result.revocation, { kind: 'not-offered' });
    assert.match(result.message, /offers no revocation endpoint, so they stay valid there until they expire/);
    assert.deepEqual(fixture.revocations, []);
    assert.equal(fixture.provider.kindOf(tokens.access_token), 'access', 'nothing was revoked');
    assert.equal(credentials().credentials[oauthStoreKey(fixture.mcpUrl)], undefined);
    assert.equal(hub.server('remote')?.status, 'needs-auth');
  });

  test('a revocation endpoint that answers 500: the tokens are removed anyway, and /mcp logout says revoking failed and why', async () => {
    fixture = await startOAuthFixture({ revocation: 'fails' });
    const hub = hubWith(approving);
    await hub.applyConfig(configOf({ remote: { url: fixture.mcpUrl } }));
    await waitForStatus(hub, 'remote', 'connected', 30_000);
    const output = await runMcpReplCommand(['logout', 'remote'], hub, createStyle(false));
    assert.match(output, /^remote {2}signed out\nremote {2}needs sign-in \(\/mcp login remote\)/);
    assert.match(
      output,
      /removed from this machine, but revoking them at the authorization server failed \(refresh token: HTTP 500 server_error: the token database is down; access token: HTTP 500 server_error: the token database is down\)/,
    );
    assert.equal(fixture.revocations.length, 2, 'both tokens were tried');
    assert.equal(credentials().credentials[oauthStoreKey(fixture.mcpUrl)], undefined);
    assert.match(hub.server('remote')?.error ?? '', /revoking them at the authorization server failed/);
  });

  test('a revocation endpoint that never answers: sign-out ends after its timeout, and the tokens were removed before it was asked', async () => {
    fixture = await startOAuthFixture({ revocation: 'hangs' });
    const hub = new McpHub({ revocationTimeoutMs: 1500, signIn: { store: new FileCredentialStore(storage), openBrowser: (url) => void approving(url) } });
    hubs.push(hub);
    await hub.applyConfig(configOf({ remote: { url: fixture.mcpUrl } }));
    await waitForStatus(hub, 'remote', 'connected', 30_000);
    const signingOut = hub.signOut('remote');
    await eventually(() => fixture!.revocations.length === 1, 20_000, 'the revocation request');
    assert.equal(credentials().credentials[oauthStoreKey(fixture.mcpUrl)], undefined, 'gone while the revocation is still unanswered');
    const result = await signingOut;
    assert.equal(result.revocation.kind, 'failed');
    assert.match(result.message, /the revocation endpoint did not answer within 2 s/);
    assert.equal(fixture.revocations.length, 1, 'the deadline covers both requests');
    assert.equal(hub.server('remote')?.status, 'needs-auth');
  });

  test('the REPL: /mcp shows who needs sign-in, /mcp logout forgets the tokens, /mcp login signs in again', async () => {
    fixture = await startOAuthFixture();
    const hub = hubWith(approving);
    await hub.applyConfig(configOf({ remote: { url: fixture.mcpUrl } }));
    await waitForStatus(hub, 'remote', 'connected', 30_000);
    const style = createStyle(false);
    assert.match(await runMcpReplCommand([], hub, style), /^remote {2}connected {2}streamableHttp · \d+ tools.* · signed in \(OAuth\)/m);
    assert.match(
      await runMcpReplCommand(['logout', 'remote'], hub, style),
      /remote {2}signed out[\s\S]*remote {2}needs sign-in \(\/mcp login remote\)[\s\S]*revoked the tokens/,
    );
    assert.match(await runMcpReplCommand(['login', 'remote'], hub, style), /^remote {2}connected/);
    assert.equal(opened.length, 2);
    assert.match(await runMcpReplCommand(['login', 'nope'], hub, style), /No MCP server named "nope"/);
  });

  test('SSE: the same sign-in works over the HTTP+SSE transport', async () => {
    fixture = await startOAuthFixture();
    const hub = hubWith(approving);
    await hub.applyConfig(configOf({ legacy: { type: 'sse', url: fixture.sseUrl } }));
    await waitForStatus(hub, 'legacy', 'connected', 30_000);
    assert.equal(hub.server('legacy')?.transport, 'sse');
    assert.deepEqual((await hub.callTool('legacy', 'add', { a: 3, b: 4 })).content, [{ type: 'text', text: '7' }]);
  });

  test('a user who never finishes: the sign-in times out into "needs sign-in" and nothing keeps listening', async () => {
    fixture = await startOAuthFixture();
    const hub = hubWith(async () => {}, { timeoutMs: 1500 });
    await hub.applyConfig(configOf({ remote: { url: fixture.mcpUrl } }));
    await waitForStatus(hub, 'remote', 'needs-auth', 30_000);
    assert.match(hub.server('remote')?.error ?? '', /Sign-in failed: sign-in was not finished within 2 s/);
    const redirect = new URL(opened[0]!).searchParams.get('redirect_uri')!;
    await assert.rejects(fetch(redirect), 'the loopback callback is closed');
  });

  test('a callback with another state is refused and ignored; the genuine one still signs in', async () => {
    fixture = await startOAuthFixture();
    const forged: { status: number; body: string }[] = [];
    const hub = hubWith(async (url) => {
      const redirect = new URL(url).searchParams.get('redirect_uri')!;
      const bogus = await fetch(`${redirect}?code=stolen&state=not-the-state`);
      forged.push({ status: bogus.status, body: await bogus.text() });
      await approving(url);
    });
    await hub.applyConfig(configOf({ remote: { url: fixture.mcpUrl } }));
    await waitForStatus(hub, 'remote', 'connected', 30_000);
    assert.equal(forged[0]?.status, 400);
    assert.match(forged[0]!.body, /state does not match/);
    assert.deepEqual(fixture.provider.grants, ['authorization_code'], 'the forged code never reached the token endpoint');
  });

  test('a token endpoint error ends the sign-in with its message, in Smith and in the browser', async () => {
    fixture = await startOAuthFixture();
    const hub = hubWith(async (url) => {
      pages.push(await approveInBrowser(url, { editCallback: (callback) => callback.searchParams.set('code', 'not-a-code') }));
    });
    await hub.applyConfig(configOf({ remote: { url: fixture.mcpUrl } }));
    await waitForStatus(hub, 'remote', 'needs-auth', 30_000);
    assert.match(hub.server('remote')?.error ?? '', /token endpoint refused the authorization code: .*Invalid authorization code/);
    await eventually(() => pages.length > 0, 10_000, 'the callback page');
    assert.equal(pages[0]?.status, 502);
    assert.match(pages[0]!.body, /failed/);
  });

  test("consent denied in the browser: the server needs sign-in, with the authorization server's error", async () => {
    fixture = await startOAuthFixture();
    const hub = hubWith(async (url) => {
      pages.push(await approveInBrowser(url, { deny: true }));
    });
    await hub.applyConfig(configOf({ remote: { url: fixture.mcpUrl } }));
    await waitForStatus(hub, 'remote', 'needs-auth', 30_000);
    assert.match(hub.server('remote')?.error ?? '', /refused the sign-in: access_denied/);
  });

  test('a server that answers 401 but publishes no OAuth metadata gets a clear error', async () => {
    fixture = await startOAuthFixture({ withoutOAuth: true });
    const hub = hubWith(approving);
    await hub.applyConfig(configOf({ remote: { url: fixture.mcpUrl } }));
    await waitForStatus(hub, 'remote', 'needs-auth', 30_000);
    assert.match(hub.server('remote')?.error ?? '', /publishes no OAuth metadata: neither protected-resource metadata \(RFC 9728\)/);
    assert.equal(opened.length, 0);
  });

  test('a configured client id and secret (with ${VAR}) are used instead of registering; a busy callback port is a clear error', async () => {
    const blocker: Server = createServer((_req, res) => res.end('someone else'));
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busyPort = (blocker.address() as AddressInfo).port;
    const port = await freePort();
    fixture = await startOAuthFixture({
      clients: [configuredClient(port)],
    });
    process.env.SMITH_TEST_OAUTH_SECRET = 'configured-secret';
    try {
      const hub = hubWith(approving, { automatic: false });
      await hub.applyConfig(
        configOf({
          busy: { url: fixture.mcpUrl, oauth: { clientId: 'smith-configured', clientSecret: '${SMITH_TEST_OAUTH_SECRET}', callbackPort: busyPort } },
          configured: { url: fixture.mcpUrl, oauth: { clientId: 'smith-configured', clientSecret: '${SMITH_TEST_OAUTH_SECRET}', callbackPort: port } },
        }),
      );
      await waitForStatus(hub, 'configured', 'needs-auth', 30_000);
      assert.equal(opened.length, 0, 'automatic: false waits for the user');
      await assert.rejects(hub.signIn('busy'), new RegExp(`callback port ${busyPort} .* is in use by another program`));
      assert.equal(hub.server('busy')?.status, 'needs-auth');
      await hub.signIn('configured');
      assert.equal(hub.server('configured')?.status, 'connected');
      assert.equal(new URL(opened[0]!).searchParams.get('client_id'), 'smith-configured');
      assert.equal(fixture.provider.clientsStore.registrations, 0, 'nothing was registered');
      assert.doesNotMatch(readFileSync(join(storage, 'mcp-credentials.json'), 'utf8'), /configured-secret/, 'the secret stays in the settings');
    } finally {
      delete process.env.SMITH_TEST_OAUTH_SECRET;
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});

/** A port nobody listens on now: the configured client's redirect address. */
async function freePort(): Promise<number> {
  const free: Server = createServer();
  await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
  const port = (free.address() as AddressInfo).port;
  await new Promise<void>((resolve) => free.close(() => resolve()));
  return port;
}

/** A client registered ahead with a secret, redirecting to `port`. */
function configuredClient(port: number) {
  return {
    client_id: 'smith-configured',
    client_secret: 'configured-secret',
    redirect_uris: [`http://127.0.0.1:${port}/callback`],
    token_endpoint_auth_method: 'client_secret_post',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
}
