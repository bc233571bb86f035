// The hub against the real reference servers from npm, over stdio.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpHub, type McpServerLogEntry } from '../../../src/core/mcp/mcp-hub.js';
import { formatResourceContents, formatToolResult } from '../../../src/core/mcp/mcp-result-format.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { configOf, eventually, npmServerEntry, waitForHub } from '../../fixtures/mcp/mcp-test-support.js';

describe('McpHub with the npm reference servers (stdio)', () => {
  let hub: McpHub;
  let ws: TempWorkspace;
  const logs: McpServerLogEntry[] = [];

  before(async () => {
    ws = createTempWorkspace('smith-mcp-npm-');
    ws.write('docs/readme.md', '# Hello\n');
    hub = new McpHub();
    hub.onServerLog((entry) => logs.push(entry));
    await hub.applyConfig(
      configOf({
        everything: npmServerEntry('server-everything'),
        filesystem: npmServerEntry('server-filesystem', ws.root),
        memory: { ...npmServerEntry('server-memory'), env: { MEMORY_FILE_PATH: `${ws.root}/memory.jsonl` } },
      }),
    );
  });
  after(async () => {
    await hub.dispose();
    ws.dispose();
  });

  test('all three connect over stdio and list their tools', () => {
    for (const name of ['everything', 'filesystem', 'memory']) {
      const server = hub.server(name)!;
      assert.equal(server.status, 'connected', `${name}: ${server.error}`);
      assert.equal(server.transport, 'stdio');
      assert.ok(server.tools.length > 0, name);
    }
    assert.ok(hub.server('everything')!.tools.some((t) => t.name === 'echo'));
    assert.ok(hub.server('filesystem')!.tools.some((t) => t.name === 'list_directory'));
    assert.ok(hub.server('memory')!.tools.some((t) => t.name === 'create_entities'));
  });

  test('tools/list_changed refreshes the list: everything registers tools after initialization', async () => {
    // server-everything registers simulate-research-query in oninitialized, which sends tools/list_changed.
    await waitForHub(hub, () => hub.server('everything')!.tools.some((t) => t.name === 'simulate-research-query'), 10_000, 'the list_changed refresh');
  });

  test('resources and resource templates are listed', () => {
    const everything = hub.server('everything')!;
    assert.ok(everything.resources.some((r) => r.uri.startsWith('demo://resource/static/document/')));
    assert.ok(everything.resourceTemplates.some((t) => t.uriTemplate === 'demo://resource/dynamic/text/{resourceId}'));
  });

  test('prompts are listed, and a prompt filled in with arguments gives its text', async () => {
    const prompt = hub.server('everything')!.prompts.find((p) => p.name === 'args-prompt');
    assert.deepEqual(
      prompt?.arguments.map((a) => [a.name, a.required]),
      [
        ['city', true],
        ['state', false],
      ],
    );
    assert.match(await hub.getPrompt('everything', 'args-prompt', { city: 'Lisbon', state: 'Lisboa' }), /Lisbon, Lisboa/);
    await assert.rejects(hub.getPrompt('everything', 'no-such-prompt', {}), /prompt no-such-prompt/);
  });

  test('stderr is kept in the per-server log', async () => {
    await eventually(() => hub.serverLog('everything').some((l) => l.includes('Starting default (STDIO) server')), 5000, 'stderr line');
  });

  test('callTool and readResource on server-everything', async () => {
    const echo = formatToolResult(await hub.callTool('everything', 'echo', { message: 'hi there' }));
    assert.equal(echo.text, 'Echo: hi there');
    const image = formatToolResult(await hub.callTool('everything', 'get-tiny-image', {}));
    assert.match(image.text, /\[image: image\/png, \d+ bytes\]/);
    assert.equal(image.images.length, 1);
    const links = formatToolResult(await hub.callTool('everything', 'get-resource-links', { count: 2 }));
    assert.match(links.text, /Resource links.*\n- demo:\/\/resource\/dynamic\/blob\/1/);
    const text = formatResourceContents(await hub.readResource('everything', 'demo://resource/dynamic/text/1'));
    assert.match(text, /^\[resource: demo:\/\/resource\/dynamic\/text\/1 \(text\/plain\)\]\nResource 1: This is a plaintext resource/);
  });

  test('log notifications reach the listener and the server log', async () => {
    await hub.callTool('everything', 'toggle-simulated-logging', {});
    // The server sends a random level every 5 s; levels below the client's are dropped, and one of
    // its texts reads "Alert level-message", so match both spellings and allow a few intervals.
    await eventually(() => logs.some((l) => l.server === 'everything' && /level[ -]message/i.test(l.text)), 20_000, 'a log notification');
    assert.ok(hub.serverLog('everything').some((l) => /^\[\w+\] .*level[ -]message/i.test(l)));
    await hub.callTool('everything', 'toggle-simulated-logging', {});
  });

  test('server-filesystem reads the workspace it was given', async () => {
    const listing = formatToolResult(await hub.callTool('filesystem', 'list_directory', { path: ws.root }));
    assert.match(listing.text, /\[DIR\] docs/);
    const file = formatToolResult(await hub.callTool('filesystem', 'read_text_file', { path: `${ws.root}/docs/readme.md` }));
    assert.match(file.text, /# Hello/);
  });

  test('server-memory stores and returns entities', async () => {
    await hub.callTool('memory', 'create_entities', { entities: [{ name: 'Smith', entityType: 'agent', observations: ['writes code'] }] });
    const graph = formatToolResult(await hub.callTool('memory', 'read_graph', {}));
    assert.match(graph.text, /"name": ?"Smith"/);
  });
});
