// Revoking a sign-in's tokens against endpoints that misbehave: a redirect elsewhere, an address
// that is not http(s), an endless error page. Real HTTP servers on 127.0.0.1.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { StoredOAuth } from '../../../src/core/mcp/mcp-oauth-provider.js';
import { revokeOAuthTokens } from '../../../src/core/mcp/mcp-oauth-revocation.js';

/** A sign-in as Smith stores it, with the given revocation endpoint in its metadata. */
function storedWith(revocationEndpoint: unknown): StoredOAuth {
  return {
    client: { client_id: 'public-client' },
    tokens: { access_token: 'access-1', token_type: 'bearer', refresh_token: 'refresh-1' },
    discovery: {
      authorizationServerUrl: 'http://127.0.0.1/',
      authorizationServerMetadata: {
        issuer: 'http://127.0.0.1/',
        authorization_endpoint: 'http://127.0.0.1/authorize',
        token_endpoint: 'http://127.0.0.1/token',
        response_types_supported: ['code'],
        revocation_endpoint: revocationEndpoint,
      } as never,
    },
  };
}

describe('revokeOAuthTokens against misbehaving endpoints', () => {
  const hits: string[] = [];
  let server: Server;
  let origin: string;
  before(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/redirect') return void res.writeHead(307, { location: '/elsewhere' }).end();
      if (req.url === '/endless') {
        res.writeHead(400, { 'content-type': 'text/plain' });
        // An error page that never ends: only its start is read.
        const chunk = 'x'.repeat(64 * 1024);
        const write = () => {
          while (res.write(chunk)) {}
          res.once('drain', write);
        };
        write();
        return;
      }
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const options = () => ({ url: `${origin}/mcp`, timeoutMs: 20_000 });

  test('a redirect is not followed: the tokens never reach the address it names', async () => {
    hits.length = 0;
    const outcome = await revokeOAuthTokens(storedWith(`${origin}/redirect`), options());
    assert.equal(outcome.kind, 'failed');
    assert.match(outcome.kind === 'failed' ? outcome.reason : '', /refresh token: HTTP 307/);
    assert.deepEqual(hits, ['/redirect', '/redirect']);
  });

  test('an endpoint that is not http(s), or not a string, is refused without a request', async () => {
    for (const endpoint of ['file:///etc/passwd', 'not a url', 42]) {
      const outcome = await revokeOAuthTokens(storedWith(endpoint), options());
      assert.equal(outcome.kind, 'failed', String(endpoint));
      assert.match(outcome.kind === 'failed' ? outcome.reason : '', /is not a usable address/);
    }
  });

  test('an endless error page is read only at its start', async () => {
    const outcome = await revokeOAuthTokens(storedWith(`${origin}/endless`), options());
    assert.equal(outcome.kind, 'failed');
    assert.match(outcome.kind === 'failed' ? outcome.reason : '', /^refresh token: HTTP 400 x{20}/);
    assert.ok(outcome.kind === 'failed' && outcome.reason.length < 1000, 'the reason quotes only the start');
  });

  test('without stored tokens nothing is sent', async () => {
    hits.length = 0;
    const { tokens: _tokens, ...withoutTokens } = storedWith(`${origin}/ok`);
    assert.deepEqual(await revokeOAuthTokens(withoutTokens, options()), { kind: 'nothing-stored' });
    assert.deepEqual(hits, []);
  });
});
