// `smith acp` driven by the protocol library's own client over stdio, against the scripted model
// server: a whole task with streamed text and thinking, an edit approved through
// session/request_permission (its diff shown), "always allow" remembered, a command rejected,
// resources and embedded files in the prompt, and bad requests answered with JSON-RPC errors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, test } from 'node:test';
import { RequestError } from '@agentclientprotocol/sdk';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { npmServerEntry } from '../../fixtures/mcp/mcp-test-support.js';
import { choose, protocolLinesOnly, startAcpAgent, type AcpAgentUnderTest } from '../../helpers/acp-client.js';
import { until } from '../../helpers/until.js';

const edit = (path: string, search: string, replace: string) =>
  `<replace_in_file>\n<path>${path}</path>\n<diff>\n------- SEARCH\n${search}\n=======\n${replace}\n+++++++ REPLACE\n</diff>\n</replace_in_file>`;

describe('smith acp: a whole task through a real ACP client', () => {
  const fx = useAgentFixture();
  let running: AcpAgentUnderTest | undefined;
  const agentArgs = () => ['--provider', 'openai-compatible', '--base-url', fx.server.openAiBaseUrl, '--model', 'scripted-model', '--storage', fx.storage];
  /** Starts the agent; it is closed after the test if the test has not closed it. */
  const start = (args: readonly string[]) => {
    running = startAcpAgent(args);
    return running;
  };
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  test('initialize, a prompt with a file link and an embedded file, an approved edit with its diff, always allow, a rejected command', async () => {
    fx.ws.write('greeting.txt', 'hello\n');
    fx.ws.write('docs/guide.md', 'The guide says: be kind.\n');
    fx.server.enqueue(
      { reasoning: 'The greeting needs a name.', text: `I will edit the greeting.\n${edit('greeting.txt', 'hello', 'hello world')}` },
      { text: edit('greeting.txt', 'hello world', 'hello, world') },
      { text: '<execute_command>\n<command>echo should-not-run > ran.txt</command>\n<requires_approval>true</requires_approval>\n</execute_command>' },
      { text: '<attempt_completion>\n<result>The greeting now names the world.</result>\n</attempt_completion>' },
    );
    const acp = start(agentArgs());
    const init = await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentCapabilities?.loadSession, true);
    assert.deepEqual(init.agentCapabilities?.promptCapabilities, { image: true, audio: false, embeddedContext: true });
    assert.match(init.authMethods?.[0]?.description ?? '', /openai-compatible with model scripted-model/);
    await acp.agent.request('authenticate', { methodId: init.authMethods![0]!.id });

    const created = await acp.agent.request('session/new', { cwd: fx.ws.root, mcpServers: [] });
    const modeIds = created.modes!.availableModes.map((m) => m.id);
    for (const id of ['code', 'code:plan', 'architect', 'ask', 'orchestrator']) assert.ok(modeIds.includes(id), `${id} in ${modeIds.join(', ')}`);
    assert.equal(created.modes!.currentModeId, 'code');

    let asked = 0;
    acp.decide = () => {
      asked++;
      if (asked === 1) return choose('allow-always-user');
      return choose('reject-once');
    };
    const answer = await acp.agent.request('session/prompt', {
      sessionId: created.sessionId,
      prompt: [
        { type: 'text', text: 'Make the greeting friendlier, following' },
        { type: 'resource_link', uri: pathToFileURL(join(fx.ws.root, 'docs/guide.md')).href, name: 'guide.md' },
        { type: 'resource', resource: { uri: pathToFileURL(join(fx.ws.root, 'notes.md')).href, text: 'Embedded note: keep it short.' } },
      ],
    });
    assert.equal(answer.stopReason, 'end_turn', acp.stderr());

    // The model got the linked file (attached as a mention) and the embedded one.
    const firstAsk = lastUserText(fx.server.requestAt(0));
    assert.match(firstAsk, /Make the greeting friendlier, following @docs\/guide\.md/);
    assert.match(firstAsk, /The guide says: be kind\./);
    assert.match(firstAsk, /<file_content path="notes\.md">\nEmbedded note: keep it short\.\n<\/file_content>/);

    // Streamed thinking and text.
    assert.match(
      acp
        .updatesOf('agent_thought_chunk')
        .map((u) => (u.content.type === 'text' ? u.content.text : ''))
        .join(''),
      /The greeting needs a name\./,
    );
    const said = acp
      .updatesOf('agent_message_chunk')
      .map((u) => (u.content.type === 'text' ? u.content.text : ''))
      .join('');
    assert.match(said, /I will edit the greeting\./);
    assert.match(said, /The greeting now names the world\./);
    assert.doesNotMatch(said, /replace_in_file/, 'tool calls are not shown as text');

    // The first edit: asked with its diff, then reported with the diff of what landed.
    const greeting = join(fx.ws.root, 'greeting.txt');
    const calls = acp.updatesOf('tool_call');
    const edits = calls.filter((c) => c.kind === 'edit');
    assert.equal(edits.length, 2);
    assert.deepEqual(edits[0]!.locations, [{ path: greeting }]);
    assert.equal(edits[0]!.status, 'pending');
    assert.match(edits[0]!.title, /greeting\.txt/);
    assert.equal(acp.permissions.length, 2, 'the second edit is allowed by the remembered rule; the command is asked');
    const editAsked = acp.permissions[0]!;
    assert.equal(editAsked.toolCall.toolCallId, edits[0]!.toolCallId);
    assert.deepEqual(editAsked.toolCall.content, [{ type: 'diff', path: greeting, oldText: 'hello\n', newText: 'hello world\n' }]);
    assert.deepEqual(
      editAsked.options.map((o) => o.kind),
      ['allow_once', 'allow_always', 'allow_always', 'reject_once'],
    );
    const finished = acp.updatesOf('tool_call_update').filter((u) => u.toolCallId === edits[0]!.toolCallId && u.status === 'completed');
    assert.equal(finished.length, 1);
    assert.deepEqual(finished[0]!.content, [{ type: 'diff', path: greeting, oldText: 'hello\n', newText: 'hello world\n' }]);
    const second = acp.updatesOf('tool_call_update').find((u) => u.toolCallId === edits[1]!.toolCallId && u.status === 'completed');
    assert.deepEqual(second?.content, [{ type: 'diff', path: greeting, oldText: 'hello world\n', newText: 'hello, world\n' }]);
    assert.equal(fx.ws.read('greeting.txt'), 'hello, world\n');
    const settings = JSON.parse(readFileSync(join(fx.storage, 'settings.json'), 'utf8')) as { permissions: { allow: string[] } };
    assert.ok(
      settings.permissions.allow.some((rule) => /^Edit\(/.test(rule)),
      JSON.stringify(settings),
    );

    // The command: asked, rejected, never run.
    const command = calls.find((c) => c.kind === 'execute')!;
    assert.equal(acp.permissions[1]!.toolCall.toolCallId, command.toolCallId);
    const rejected = acp.updatesOf('tool_call_update').find((u) => u.toolCallId === command.toolCallId && u.status === 'failed');
    assert.ok(rejected, 'the rejected command is reported as failed');
    assert.throws(() => fx.ws.read('ran.txt'));
    assert.match(lastUserText(fx.server.requestAt(3)), /denied/i);

    assert.equal(await acp.close(), 0);
    running = undefined;
    assert.ok(protocolLinesOnly(acp.stdout()), `stdout held something else:\n${acp.stdout()}`);
  });

  test('bad requests get JSON-RPC errors; a provider failure ends the turn with its message', async () => {
    fx.server.enqueue({ fault: 'status', status: 400, body: { error: { message: 'model not found: scripted-model' } } });
    const acp = start(agentArgs());
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const code = async (work: Promise<unknown>) => {
      const error = await work.then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof RequestError, `expected an error, got ${String(error)}`);
      return error;
    };
    assert.equal((await code(acp.agent.request('session/prompt', { sessionId: 'nope', prompt: [{ type: 'text', text: 'hi' }] }))).code, -32002);
    const relative = await code(acp.agent.request('session/new', { cwd: 'relative/dir', mcpServers: [] }));
    assert.equal(relative.code, -32602);
    assert.match(relative.message, /absolute/);
    assert.equal((await code(acp.agent.request('session/new', { cwd: join(fx.ws.root, 'missing'), mcpServers: [] }))).code, -32602);
    assert.equal((await code(acp.agent.request('session/load', { sessionId: '../../etc', cwd: fx.ws.root, mcpServers: [] }))).code, -32602);
    assert.equal((await code(acp.agent.request('session/load', { sessionId: 'no-such-task', cwd: fx.ws.root, mcpServers: [] }))).code, -32002);

    const { sessionId } = await acp.agent.request('session/new', { cwd: fx.ws.root, mcpServers: [] });
    const badMode = await code(acp.agent.request('session/set_mode', { sessionId, modeId: 'no-such-mode' }));
    assert.equal(badMode.code, -32602);
    assert.match(badMode.message, /available: code, code:plan/);
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
      'hex',
    );
    const image = await code(
      acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'image', mimeType: 'image/png', data: png.toString('base64') }] }),
    );
    assert.equal(image.code, -32602);
    assert.match(image.message, /does not take images.*--vision/);
    assert.equal((await code(acp.agent.request('session/prompt', { sessionId, prompt: [] }))).code, -32602);

    const failed = await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Say hi' }] });
    assert.equal(failed.stopReason, 'end_turn');
    const said = acp
      .updatesOf('agent_message_chunk')
      .map((u) => (u.content.type === 'text' ? u.content.text : ''))
      .join('');
    assert.match(said, /Smith stopped: .*400/);

    // One prompt at a time per session; a closed session is gone.
    fx.server.enqueue({ fault: 'hang' });
    const hanging = acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Take your time' }] });
    await until(() => fx.server.requests.length === 2, 'the second model request');
    const second = await code(acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'And this?' }] }));
    assert.equal(second.code, -32602);
    assert.match(second.message, /still running/);
    await acp.agent.notify('session/cancel', { sessionId });
    assert.equal((await hanging).stopReason, 'cancelled');
    await acp.agent.request('session/close', { sessionId });
    assert.equal((await code(acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] }))).code, -32002);
    assert.equal(await acp.close(), 0);
    running = undefined;
    assert.ok(protocolLinesOnly(acp.stdout()), acp.stdout());
  });

  test("the client's MCP servers run beside the configured ones: the model calls one, approved through the client", async () => {
    fx.server.enqueue(
      {
        text: '<use_mcp_tool>\n<server_name>everything</server_name>\n<tool_name>echo</tool_name>\n<arguments>{"message": "via ACP"}</arguments>\n</use_mcp_tool>',
      },
      { text: '<attempt_completion>\n<result>Echoed.</result>\n</attempt_completion>' },
    );
    const acp = start(agentArgs());
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const entry = npmServerEntry('server-everything') as { command: string; args: string[] };
    const { sessionId } = await acp.agent.request('session/new', {
      cwd: fx.ws.root,
      mcpServers: [{ name: 'everything', command: entry.command, args: entry.args, env: [{ name: 'SMITH_TEST_VALUE', value: 'x' }] }],
    });
    const answer = await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Echo through MCP' }] });
    assert.equal(answer.stopReason, 'end_turn', acp.stderr());
    assert.match(String(fx.server.requestAt(0).body.messages[0].content), /## everything[\s\S]*- echo:/);
    assert.equal(acp.permissions.length, 1);
    assert.equal(acp.permissions[0]!.toolCall.kind, 'other');
    assert.match(lastUserText(fx.server.requestAt(1)), /Echo: via ACP/);
    const bad = await acp.agent
      .request('session/new', { cwd: fx.ws.root, mcpServers: [{ type: 'http', name: 'web', url: 'ftp://example.com', headers: [] }] })
      .then(
        () => undefined,
        (e: unknown) => e as RequestError,
      );
    assert.equal(bad?.code, -32602);
    assert.match(bad?.message ?? '', /url must be http\(s\)/);
  });

  test('without a usable provider, initialize says what to configure and a session needs authentication', async () => {
    const acp = start(['--storage', fx.storage]);
    const init = await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    assert.match(init.authMethods?.[0]?.description ?? '', /No usable provider: no provider chosen/);
    const error = await acp.agent.request('session/new', { cwd: fx.ws.root, mcpServers: [] }).then(
      () => undefined,
      (e: unknown) => e as RequestError,
    );
    assert.equal(error?.code, -32000);
    assert.match(error?.message ?? '', /Authentication required: No usable provider/);
    const auth = await acp.agent.request('authenticate', { methodId: 'smith-settings' }).then(
      () => undefined,
      (e: unknown) => e as RequestError,
    );
    assert.equal(auth?.code, -32000);
  });
});
