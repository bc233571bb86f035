import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { runCli, spawnCli } from '../../helpers/cli-runner.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let server: ScriptedLlmServer;
let ws: TempWorkspace;
let storage: string;
before(async () => {
  server = await startScriptedLlmServer();
  ws = createTempWorkspace();
  storage = mkdtempSync(join(tmpdir(), 'smith-storage-'));
});
after(async () => {
  await server.close();
  ws.dispose();
  rmSync(storage, { recursive: true, force: true });
});

test('a task killed mid-run resumes from its log, and the model is told it was interrupted', async () => {
  ws.write('notes.md', '# Notes\n');
  server.enqueue({ text: '<read_file>\n<path>notes.md</path>\n</read_file>' }, { fault: 'hang' });
  const args = ['--provider', 'openai-compatible', '--base-url', server.openAiBaseUrl, '--model', 'scripted-model', '--cwd', ws.root, '--storage', storage, '--yes'];
  const { child, done } = spawnCli({ args: [...args, 'Summarise the notes'] });
  for (let waited = 0; server.requests.length < 2; waited += 50) {
    assert.ok(waited < 20_000, 'the CLI never made its second request');
    await sleep(50);
  }
  child.kill('SIGKILL');
  await done;

  const [taskId] = readdirSync(join(storage, 'tasks'));
  assert.ok(taskId);
  const before = readFileSync(join(storage, 'tasks', taskId, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).type);
  assert.deepEqual(before.slice(0, 6), ['task_started', 'request_started', 'model_response', 'tool_requested', 'tool_result', 'request_started']);

  server.enqueue((request) => {
    const messages = request.body.messages as Array<{ role: string; content: string }>;
    const last = messages.at(-1)!;
    assert.equal(last.role, 'user');
    assert.match(last.content, /\[TASK RESUMPTION\] This task was interrupted/);
    // The history before the interruption is intact: the read and its result.
    assert.ok(messages.some((m) => m.role === 'assistant' && m.content.includes('<read_file>')));
    assert.ok(messages.some((m) => m.content.includes("[read_file for 'notes.md'] Result:\n1 | # Notes")));
    return { text: '<attempt_completion>\n<result>The notes hold one heading.</result>\n</attempt_completion>' };
  });
  const resumed = await runCli({ args: [...args, '--output', 'json', '--resume', taskId] });
  assert.equal(resumed.code, 0, resumed.stderr);
  const summary = JSON.parse(resumed.stdout);
  assert.equal(summary.taskId, taskId);
  assert.equal(summary.result, 'The notes hold one heading.');

  const unknown = await runCli({ args: [...args, '--resume', 'no-such-task'] });
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /No task with id "no-such-task"/);
});
