// The hub against SDK-built servers over Streamable HTTP and over the old HTTP+SSE transport.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { McpHub } from '../../../src/core/mcp/mcp-hub.js';
import { formatToolResult } from '../../../src/core/mcp/mcp-result-format.js';
import { startHttpFixture, type HttpFixture } from '../../fixtures/mcp/http-fixture.js';
import { configOf, waitForHub } from '../../fixtures/mcp/mcp-test-support.js';

describe('McpHub over HTTP', () => {
  let streamable: HttpFixture;
  let sseOnly: HttpFixture;
  let hub: McpHub;
  before(async () => {
    streamable = await startHttpFixture({ kind: 'streamableHttp', authorization: 'Bearer s3cret' });
    sseOnly = await startHttpFixture({ kind: 'sse' });
  });
  after(async () => {
    await streamable.close();
    await sseOnly.close();
  });
  afterEach(() => hub?.dispose());

  test('Streamable HTTP: connects with the configured headers, lists and calls tools, refreshes on list_changed', async () => {
    hub = new McpHub();
    await hub.applyConfig(configOf({ remote: { type: 'streamableHttp', url: streamable.url, headers: { Authorization: 'Bearer s3cret' } } }));
    const server = hub.server('remote')!;
    assert.equal(server.status, 'connected', server.error);
    assert.equal(server.transport, 'streamableHttp');
    assert.ok(server.tools.some((t) => t.name === 'add'));
    assert.equal(formatToolResult(await hub.callTool('remote', 'add', { a: 2, b: 3 })).text, '5');
    assert.ok(streamable.requests.every((r) => r.authorization === 'Bearer s3cret'));
    await hub.callTool('remote', 'grow', {});
    await waitForHub(hub, () => hub.server('remote')!.tools.some((t) => t.name === 'grown'), 5000, 'grown tool over HTTP');
  });

  test('a URL without a type means Streamable HTTP', async () => {
    hub = new McpHub();
    await hub.applyConfig(configOf({ remote: { url: streamable.url, headers: { Authorization: 'Bearer s3cret' } } }));
    assert.equal(hub.server('remote')!.transport, 'streamableHttp');
  });

  test('a server that only speaks SSE is reached through the fallback', async () => {
    hub = new McpHub();
    await hub.applyConfig(configOf({ legacy: { type: 'streamableHttp', url: sseOnly.url } }));
    const server = hub.server('legacy')!;
    assert.equal(server.status, 'connected', server.error);
    assert.equal(server.transport, 'sse');
    // The Streamable HTTP attempt was a POST to the SSE endpoint, refused with 405; then GET /sse.
    assert.ok(sseOnly.requests.some((r) => r.method === 'POST' && r.path === '/sse'));
    assert.ok(sseOnly.requests.some((r) => r.method === 'GET' && r.path === '/sse'));
    assert.equal(formatToolResult(await hub.callTool('legacy', 'add', { a: 40, b: 2 })).text, '42');
  });

  test('type "sse" goes straight to SSE', async () => {
    hub = new McpHub();
    const before = sseOnly.requests.length;
    await hub.applyConfig(configOf({ legacy: { type: 'sse', url: sseOnly.url } }));
    assert.equal(hub.server('legacy')!.transport, 'sse');
    assert.ok(!sseOnly.requests.slice(before).some((r) => r.method === 'POST' && r.path === '/sse'));
  });

  test('a wrong token and an unreachable server end in error with both attempts explained', async () => {
    hub = new McpHub();
    await hub.applyConfig(
      configOf({
        unauthorized: { type: 'streamableHttp', url: streamable.url, headers: { Authorization: 'Bearer wrong' } },
        nowhere: { url: 'http://127.0.0.1:9/mcp' },
      }),
    );
    const unauthorized = hub.server('unauthorized')!;
    assert.equal(unauthorized.status, 'error');
    assert.match(unauthorized.error!, /Streamable HTTP failed .*401.*SSE fallback failed too/s);
    const nowhere = hub.server('nowhere')!;
    assert.equal(nowhere.status, 'error');
    assert.match(nowhere.error!, /Could not connect: Streamable HTTP failed/);
  });
});
