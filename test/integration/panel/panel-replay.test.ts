// "Replay with…" in the panel backend: the webview's request, validated by the protocol schema,
// replays a task the CLI ran against the scripted server, and the comparison is shown as Markdown.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Host } from '../../../src/core/ports.js';
import { ChildProcessRunner } from '../../../src/core/process/child-process-runner.js';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { findExecutable } from '../../../src/core/search/find-executable.js';
import { NodeFileSystem } from '../../../src/core/workspace/node-file-system.js';
import { createMessageHandlers, type RequestHandlers } from '../../../src/panel/message-handlers.js';
import { PanelReplays } from '../../../src/panel/task-replays.js';
import type { TaskController } from '../../../src/panel/task-controller.js';
import { parseWebviewMessage } from '../../../src/shared/protocol.js';
import type { ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { NO_MCP_REQUESTS } from '../../helpers/no-mcp-requests.js';

const reply = (text: string): ScriptedReply => ({ text, usage: { input: 1_000, output: 100 } });
const replace = (path: string, search: string, by: string) =>
  reply(`<replace_in_file>\n<path>${path}</path>\n<diff>\n------- SEARCH\n${search}\n=======\n${by}\n+++++++ REPLACE\n</diff>\n</replace_in_file>`);
const complete = (result: string) => reply(`<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`);

describe('the panel: Replay with…', () => {
  const fx = useAgentFixture();

  function panel(configured = true) {
    const notices: string[] = [];
    const shown: { name: string; markdown: string }[] = [];
    const host: Host = {
      files: new NodeFileSystem(),
      approvals: {
        ask: async () => {
          throw new Error('a replay asks no one');
        },
      },
      questions: { ask: async () => undefined },
      clock: { now: () => Date.now() },
      processes: new ChildProcessRunner(),
      ripgrepPath: () => findExecutable('rg'),
      notify: (_level, message) => void notices.push(message),
    };
    const replays = new PanelReplays({
      storageDir: fx.storage,
      host,
      provider: async (model) => (configured ? createProvider({ provider: 'openai-compatible', baseUrl: fx.server.openAiBaseUrl, model }) : undefined),
      maxIterations: () => 5,
      show: async (name, markdown) => void shown.push({ name, markdown }),
    });
    // Only the replay request is sent here; the other handlers are not reached.
    const handlers = createMessageHandlers({} as TaskController, NO_MCP_REQUESTS, replays);
    const send = async (raw: unknown) => {
      const parsed = parseWebviewMessage(raw);
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
      const message = parsed.message as Extract<typeof parsed.message, { type: 'replayTask' }>;
      await (handlers.replayTask as RequestHandlers['replayTask'])(message);
    };
    return { notices, shown, replays, send };
  }

  async function runOriginal(extra: string[] = []): Promise<string> {
    fx.ws.write('a.txt', 'as the user left it\n');
    fx.server.enqueue(replace('a.txt', 'as the user left it', 'from the original'), complete('Edited.'));
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', ...extra, 'Edit a.txt'] });
    assert.equal(run.code, 0, run.stderr);
    return (JSON.parse(run.stdout) as { taskId: string }).taskId;
  }

  test('replays a history item with the model named, in a scratch copy, and shows the comparison', async () => {
    const taskId = await runOriginal();
    const { notices, shown, replays, send } = panel();
    fx.server.enqueue(replace('a.txt', 'as the user left it', 'from the replay'), complete('Edited again.'));
    await send({ type: 'replayTask', id: 'r1', taskId, model: ' other-model ' });
    assert.match(notices[0]!, /Replaying the task with other-model/);
    const [comparison] = await replays.settled();
    assert.ok(comparison, notices.join('\n'));
    assert.equal(fx.ws.read('a.txt'), 'from the original\n', "the user's workspace is untouched");
    assert.equal(shown.length, 1);
    assert.equal(shown[0]!.name, `smith-replay-${comparison.replayId}.md`);
    const markdown = shown[0]!.markdown;
    assert.match(markdown, /^\| Model \| openai-compatible scripted-model \| openai-compatible other-model \|$/m);
    assert.match(markdown, /^\| Tool calls \| 2 \| 2 \|$/m);
    assert.match(markdown, /^\| Tokens in \| 2,000 \| 2,000 \|$/m);
    assert.match(markdown, /## Replay\n\n```diff\n--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1,1 \+1,1 @@\n-as the user left it\n\+from the replay\n```/);
    assert.ok(existsSync(join(comparison.workspace, 'a.txt')));
  });

  test('a task that cannot be replayed, or no provider set up, is refused to the page at once', async () => {
    const taskId = await runOriginal(['--no-checkpoints']);
    const { send, shown } = panel();
    await assert.rejects(send({ type: 'replayTask', id: 'r1', taskId, model: 'other-model' }), /has no checkpoints/);
    await assert.rejects(send({ type: 'replayTask', id: 'r2', taskId: 'no-such-task', model: 'other-model' }), /No task with id "no-such-task"/);
    const withCheckpoints = await runOriginal();
    await assert.rejects(
      panel(false).send({ type: 'replayTask', id: 'r3', taskId: withCheckpoints, model: 'other-model' }),
      /Set up a model provider in Settings first/,
    );
    assert.equal(parseWebviewMessage({ type: 'replayTask', id: 'r4', taskId, model: '  ' }).ok, false, 'a model must be named');
    assert.deepEqual(shown, []);
    assert.equal(existsSync(join(fx.storage, 'replays')) ? readdirSync(join(fx.storage, 'replays')).length : 0, 0);
  });
});
