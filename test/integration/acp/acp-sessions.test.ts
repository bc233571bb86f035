// `smith acp` sessions over time: a cancel mid-turn stops the running command, modes switch
// (Plan/Act included), a question ends the turn and the next prompt answers it, and a session is
// loaded again in a new agent process (its log replayed as updates) and goes on.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { startAcpAgent, type AcpAgentUnderTest } from '../../helpers/acp-client.js';
import { isPidAlive } from '../../helpers/pid-liveness.js';
import { until } from '../../helpers/until.js';

const text = (updates: readonly { content: { type: string; text?: string } }[]) => updates.map((u) => u.content.text ?? '').join('');

describe('smith acp: sessions', () => {
  const fx = useAgentFixture();
  const open: AcpAgentUnderTest[] = [];
  const agentArgs = () => ['--provider', 'openai-compatible', '--base-url', fx.server.openAiBaseUrl, '--model', 'scripted-model', '--storage', fx.storage];
  const start = async () => {
    const acp = startAcpAgent(agentArgs());
    open.push(acp);
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    return acp;
  };
  afterEach(async () => {
    for (const acp of open.splice(0)) await acp.close();
  });
  /** The pid of the scripted long command's shell, once it has written it. */
  const commandPid = () =>
    until(
      () => {
        try {
          return Number(fx.ws.read('pid.txt').trim()) || undefined;
        } catch {
          return undefined;
        }
      },
      'the command to start',
      120_000,
    );
  const LONG_COMMAND = '<execute_command>\n<command>echo $$ > pid.txt; sleep 120</command>\n<requires_approval>false</requires_approval>\n</execute_command>';

  test('session/cancel mid-turn ends the prompt as cancelled and kills the running command', async () => {
    fx.server.enqueue({ text: LONG_COMMAND });
    const acp = await start();
    const { sessionId } = await acp.agent.request('session/new', { cwd: fx.ws.root, mcpServers: [] });
    const prompt = acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Wait a long time' }] });
    const pid = await commandPid();
    assert.ok(isPidAlive(pid));
    await acp.agent.notify('session/cancel', { sessionId });
    assert.equal((await prompt).stopReason, 'cancelled');
    await until(() => !isPidAlive(pid), 'the command to be killed', 60_000);
    const command = acp.updatesOf('tool_call').find((c) => c.kind === 'execute');
    assert.ok(command);
    assert.match(command.title, /sleep 120/);
  });

  test('the client going away mid-turn (stdin closed) ends the agent and the command it ran', async () => {
    fx.server.enqueue({ text: LONG_COMMAND });
    const acp = await start();
    const { sessionId } = await acp.agent.request('session/new', { cwd: fx.ws.root, mcpServers: [] });
    void acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Wait a long time' }] }).catch(() => undefined);
    const pid = await commandPid();
    open.splice(open.indexOf(acp), 1);
    assert.equal(await acp.close(), 0, acp.stderr());
    assert.ok(!isPidAlive(pid), 'the command was killed before the agent exited');
  });

  test("the loop's own question (go on past the iteration limit?) ends the turn; the next prompt answers it", async () => {
    fx.ws.write('a.txt', 'alpha\n');
    fx.server.enqueue(
      { text: '<read_file>\n<path>a.txt</path>\n</read_file>' },
      { text: '<attempt_completion>\n<result>Read it.</result>\n</attempt_completion>' },
    );
    const acp = startAcpAgent([...agentArgs(), '--max-iterations', '1']);
    open.push(acp);
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await acp.agent.request('session/new', { cwd: fx.ws.root, mcpServers: [] });
    const stopped = await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Read a.txt' }] });
    assert.equal(stopped.stopReason, 'end_turn');
    assert.match(
      text(acp.updatesOf('agent_message_chunk')),
      /The task reached a limit: .*1 iterations.*Continue with the same allowance again\?\n\n- Continue\n- Stop/,
    );
    assert.equal(fx.server.requests.length, 1);
    const goesOn = await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'continue' }] });
    assert.equal(goesOn.stopReason, 'end_turn');
    assert.equal(fx.server.requests.length, 2);
    assert.match(text(acp.updatesOf('agent_message_chunk')), /Read it\./);
  });

  test('set_mode switches Plan/Act and the mode; a question ends the turn and the next prompt answers it; load replays and goes on', async () => {
    fx.server.enqueue(
      { text: '<ask_followup_question>\n<question>Which file?</question>\n<options>["a.txt", "b.txt"]</options>\n</ask_followup_question>' },
      { text: '<plan_mode_respond>\n<response>The plan: edit the file.</response>\n</plan_mode_respond>' },
      { text: '<attempt_completion>\n<result>Resumed and done.</result>\n</attempt_completion>' },
    );
    const first = await start();
    const { sessionId } = await first.agent.request('session/new', { cwd: fx.ws.root, mcpServers: [] });
    await first.agent.request('session/set_mode', { sessionId, modeId: 'architect:plan' });
    await until(() => first.updatesOf('current_mode_update').at(-1)?.currentModeId === 'architect:plan', 'the mode update');

    const asking = await first.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Plan the change' }] });
    assert.equal(asking.stopReason, 'end_turn');
    assert.match(text(first.updatesOf('agent_message_chunk')), /Which file\?\n\n- a\.txt\n- b\.txt/);
    assert.match(lastUserText(fx.server.requestAt(0)), /PLAN \(Plan\/Act\), mode "architect"/);

    const answered = await first.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'b.txt' }] });
    assert.equal(answered.stopReason, 'end_turn');
    assert.match(lastUserText(fx.server.requestAt(1)), /b\.txt/);
    assert.match(text(first.updatesOf('agent_message_chunk')), /The plan: edit the file\./);
    await first.close();

    // A new agent process loads the session from the log.
    const second = await start();
    const loaded = await second.agent.request('session/load', { sessionId, cwd: fx.ws.root, mcpServers: [] });
    assert.equal(loaded.modes?.currentModeId, 'architect:plan');
    assert.match(text(second.updatesOf('user_message_chunk')), /Plan the change/);
    assert.match(text(second.updatesOf('agent_message_chunk')), /Which file\?[\s\S]*The plan: edit the file\./);

    await second.agent.request('session/set_mode', { sessionId, modeId: 'code' });
    const goesOn = await second.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Now do it' }] });
    assert.equal(goesOn.stopReason, 'end_turn');
    const resumedRequest = fx.server.requestAt(2);
    assert.match(JSON.stringify(resumedRequest.body.messages), /Plan the change/, 'the loaded task goes on with its history');
    assert.match(lastUserText(resumedRequest), /Now do it/);
    assert.match(lastUserText(resumedRequest), /ACT \(Plan\/Act\), mode "code"/);
    assert.match(text(second.updatesOf('agent_message_chunk')), /Resumed and done\./);
  });
});
