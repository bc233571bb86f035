// What Smith offers servers as a client, against the official server-everything over stdio:
// form elicitation (answered, declined, refused, timed out), progress, roots and their changes,
// and structured tool output.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { McpElicitationAnswer, McpElicitationRequest } from '../../../src/core/mcp/mcp-elicitation.js';
import { McpHub, type McpProgress } from '../../../src/core/mcp/mcp-hub.js';
import { formatToolResult } from '../../../src/core/mcp/mcp-result-format.js';
import { mcpRootsOf } from '../../../src/core/mcp/mcp-roots.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { configOf, eventually, npmServerEntry, waitForHub, waitForStatus } from '../../fixtures/mcp/mcp-test-support.js';

const ELICIT = 'trigger-elicitation-request';

describe('MCP client features with server-everything', { timeout: 120_000 }, () => {
  let hub: McpHub;
  let ws: TempWorkspace;
  let answer: (request: McpElicitationRequest, signal: AbortSignal) => Promise<McpElicitationAnswer>;
  const asked: McpElicitationRequest[] = [];

  before(async () => {
    ws = createTempWorkspace('smith-mcp-features-');
    ws.write('b/readme.md', 'b\n');
    hub = new McpHub({
      elicitationTimeoutMs: 1500,
      roots: mcpRootsOf([{ path: ws.root, name: 'main' }]),
      elicitor: (request, signal) => {
        asked.push(request);
        return answer(request, signal);
      },
    });
    await hub.applyConfig(configOf({ everything: npmServerEntry('server-everything') }));
    await waitForStatus(hub, 'everything', 'connected', 30_000);
    // The tools that need a client capability are registered after initialization (then tools/list_changed).
    await waitForHub(
      hub,
      () => ['get-roots-list', ELICIT].every((name) => hub.server('everything')!.tools.some((t) => t.name === name)),
      20_000,
      'the capability tools',
    );
  });
  after(async () => {
    await hub.dispose();
    ws.dispose();
  });

  test('an elicitation becomes fields from its schema, and the accepted answer reaches the server', async () => {
    answer = async () => ({
      action: 'accept',
      content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com', integer: 7, untitledSingleSelectEnum: 'Joey' },
    });
    const text = formatToolResult(await hub.callTool('everything', ELICIT, {})).text;
    assert.match(text, /User provided the requested information/, text);
    assert.match(text, /Name: Ada Lovelace/);
    assert.match(text, /Favorite Integer: 7/);
    const request = asked.at(-1)!;
    assert.equal(request.server, 'everything');
    const byName = new Map(request.fields.map((f) => [f.name, f]));
    assert.deepEqual({ kind: byName.get('name')?.kind, required: byName.get('name')?.required }, { kind: 'text', required: true });
    const email = byName.get('email');
    assert.equal(email?.kind === 'text' ? email.format : undefined, 'email');
    const integer = byName.get('integer');
    assert.ok(integer?.kind === 'number' && integer.integer && integer.minimum === 1 && integer.maximum === 100, JSON.stringify(integer));
    assert.equal(byName.get('check')?.kind, 'boolean');
    const hero = byName.get('titledSingleSelectEnum');
    assert.ok(hero?.kind === 'choice' && hero.options.some((o) => o.value === 'hero-2' && o.label === 'Green Lantern'), JSON.stringify(hero));
    const pet = byName.get('legacyTitledEnum');
    assert.ok(pet?.kind === 'choice' && pet.options[1]?.label === 'Dogs', JSON.stringify(pet));
    assert.equal(byName.get('titledMultipleSelectEnum')?.kind, 'multi');
  });

  test('decline and cancel reach the server as such', async () => {
    answer = async () => ({ action: 'decline' });
    assert.match(formatToolResult(await hub.callTool('everything', ELICIT, {})).text, /User declined/);
    answer = async () => ({ action: 'cancel' });
    assert.match(formatToolResult(await hub.callTool('everything', ELICIT, {})).text, /User cancelled/);
  });

  test('an answer that does not match the schema is never sent: the request is cancelled', async () => {
    answer = async () => ({ action: 'accept', content: { name: 'Bob', integer: 500, email: 'not-an-address' } });
    const text = formatToolResult(await hub.callTool('everything', ELICIT, {})).text;
    assert.match(text, /User cancelled/, text);
    assert.doesNotMatch(text, /Bob/);
    assert.ok(hub.serverLog('everything').some((line) => /answer does not match the requested schema/.test(line) && /integer/.test(line)));
  });

  test('a form nobody answers is cancelled after the timeout, and its answerer is told to take it down', async () => {
    let aborted = false;
    answer = (_request, signal) =>
      new Promise(() => {
        signal.addEventListener('abort', () => (aborted = true));
      });
    const text = formatToolResult(await hub.callTool('everything', ELICIT, {})).text;
    assert.match(text, /User cancelled/, text);
    assert.equal(aborted, true);
    assert.ok(
      hub.serverLog('everything').some((line) => /no answer within 2 s|no answer within 1 s/.test(line)),
      hub.serverLog('everything').join('\n'),
    );
  });

  test('without an answerer every form is declined', async () => {
    const lonely = new McpHub();
    try {
      await lonely.applyConfig(configOf({ everything: npmServerEntry('server-everything') }));
      await waitForHub(lonely, () => lonely.server('everything')?.tools.some((t) => t.name === ELICIT) === true, 30_000, 'the elicitation tool');
      assert.match(formatToolResult(await lonely.callTool('everything', ELICIT, {})).text, /User declined/);
    } finally {
      await lonely.dispose();
    }
  });

  test('progress notifications arrive during the call, each with the total', async () => {
    const seen: McpProgress[] = [];
    const result = await hub.callTool('everything', 'trigger-long-running-operation', { duration: 0.9, steps: 4 }, { onProgress: (p) => seen.push(p) });
    assert.match(formatToolResult(result).text, /Long running operation completed/);
    // The SDK handles a notification a tick later than a response, so the report sent just before the result can miss the call.
    assert.ok(seen.length >= 3, JSON.stringify(seen));
    assert.deepEqual(
      seen.slice(0, 3).map((p) => [p.progress, p.total]),
      [
        [1, 4],
        [2, 4],
        [3, 4],
      ],
    );
  });

  test('the workspace folders are the roots, and a change is announced and read again', async () => {
    const first = formatToolResult(await hub.callTool('everything', 'get-roots-list', {})).text;
    assert.match(first, /Current MCP Roots \(1 total\)/, first);
    assert.ok(first.includes(pathToFileURL(ws.root).href), first);
    const second = `${ws.root}/b`;
    hub.setRoots(
      mcpRootsOf([
        { path: ws.root, name: 'main' },
        { path: second, name: 'second' },
      ]),
    );
    // The server asks roots/list again when told; its cached list then has both.
    let text = '';
    await eventually(
      () => {
        void hub.callTool('everything', 'get-roots-list', {}).then((r) => (text = formatToolResult(r).text));
        return /\(2 total\)/.test(text);
      },
      15_000,
      'the new roots list',
    );
    assert.ok(text.includes(pathToFileURL(second).href), text);
    assert.match(text, /second/);
  });

  test('structured content is given to the model once, and kept as a fact for the panel', async () => {
    const tool = hub.server('everything')!.tools.find((t) => t.name === 'get-structured-content');
    assert.ok(tool?.outputSchema, 'the output schema is listed');
    const formatted = formatToolResult(await hub.callTool('everything', 'get-structured-content', { location: 'Chicago' }));
    assert.equal(JSON.parse(formatted.structured!).conditions, 'Light rain / drizzle');
    // server-everything repeats the JSON as text, so it is not added a second time.
    assert.equal(formatted.text.match(/Light rain/g)?.length, 1, formatted.text);
  });

  test('resource links are kept as facts with their names', async () => {
    const formatted = formatToolResult(await hub.callTool('everything', 'get-resource-links', { count: 2 }));
    assert.equal(formatted.links.length, 2);
    assert.match(formatted.links[0]!.uri, /^demo:\/\/resource\//);
  });
});
