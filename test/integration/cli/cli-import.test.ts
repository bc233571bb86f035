// `smith import` end to end: sessions of Claude Code, Cline and Roo Code written in their real shapes,
// imported by the CLI, listed in the history, resumed against the scripted server (which records the
// conversation it was sent, in the provider's wire format) and replayed with another model.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { listStoredTasks } from '../../../src/core/log/task-log.js';
import type { ReplayComparison } from '../../../src/core/replay/run-replay.js';
import { allText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { ClaudeCodeSessionBuilder, ClineTaskBuilder } from '../../helpers/foreign-sessions.js';

type Part = { type: string; [key: string]: unknown };
type WireMessage = { role: string; content: string | Part[] };

describe('smith import', () => {
  const fx = useAgentFixture();
  const anthropic = () => [
    '--provider',
    'anthropic',
    '--base-url',
    fx.server.anthropicBaseUrl,
    '--model',
    'claude-sonnet-4-5',
    '--cwd',
    fx.ws.root,
    '--storage',
    fx.storage,
  ];

  /** A Claude Code session in this workspace: a read, an edit, a Task sub-agent, a signed thought. */
  function claudeSession(home: string): ClaudeCodeSessionBuilder {
    fx.ws.write('src/cart.ts', 'export const total = sum();\n');
    const s = new ClaudeCodeSessionBuilder(fx.ws.root);
    s.summary('Fix the cart total');
    s.user('The cart total is wrong, fix it');
    s.assistant([
      { type: 'thinking', thinking: 'Read cart.ts.', signature: 'EqQBCkYIBxgCKkDsig' },
      { type: 'tool_use', id: 'toolu_01Read', name: 'Read', input: { file_path: join(fx.ws.root, 'src/cart.ts') } },
    ]);
    s.toolResult('toolu_01Read', '     1→export const total = 0;');
    s.assistant([
      {
        type: 'tool_use',
        id: 'toolu_01Edit',
        name: 'Edit',
        input: { file_path: join(fx.ws.root, 'src/cart.ts'), old_string: 'total = 0', new_string: 'total = sum()' },
      },
    ]);
    s.toolResult('toolu_01Edit', `The file ${join(fx.ws.root, 'src/cart.ts')} has been updated.`);
    s.assistant([{ type: 'tool_use', id: 'toolu_01Task', name: 'Task', input: { description: 'Check tests', prompt: 'Run the cart tests' } }]);
    s.toolResult('toolu_01Task', [{ type: 'text', text: 'All 4 cart tests pass.' }]);
    s.assistant([{ type: 'text', text: 'Fixed the total.' }]);
    const dir = join(home, '.claude', 'projects', fx.ws.root.replace(/[^a-zA-Z0-9]/g, '-'));
    mkdirSync(dir, { recursive: true });
    s.write(join(dir, `${s.sessionId}.jsonl`));
    return s;
  }

  test('a Claude Code session: listed, imported, in the history, resumed natively with its calls as tool_use parts, and replayed', async () => {
    const home = join(fx.storage, 'home');
    const session = claudeSession(home);
    const env = { HOME: home, ANTHROPIC_API_KEY: 'test-key-for-the-scripted-server' };

    const listed = await runCli({ args: ['import', '--storage', fx.storage], cwd: fx.ws.root, env });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^ {2}${session.sessionId} +\\S+ +The cart total is wrong, fix it$`, 'm'));
    assert.deepEqual(listStoredTasks(fx.storage), [], 'listing imports nothing');

    const run = await runCli({ args: ['import', session.sessionId, '--storage', fx.storage, '--output', 'json'], cwd: fx.ws.root, env });
    assert.equal(run.code, 0, run.stderr);
    const imported = JSON.parse(run.stdout) as { taskId: string; source: string; cwd: string; notCarried: string[] };
    assert.equal(imported.source, 'claude-code');
    assert.equal(imported.cwd, fx.ws.root);
    assert.ok(imported.notCarried.includes("calls of Claude Code's Task tool (Smith has no such tool; kept as text)"), imported.notCarried.join('\n'));
    const [history] = listStoredTasks(fx.storage);
    assert.equal(history?.taskId, imported.taskId);
    assert.equal(history.task, 'The cart total is wrong, fix it');
    assert.equal(history.status, 'completed');

    fx.server.enqueue({ text: 'Done before; nothing more.', toolCalls: [{ name: 'attempt_completion', arguments: { result: 'The total is fixed.' } }] });
    const resumed = await runCli({ args: [...anthropic(), '--tool-protocol', 'native', '--yes', '--resume', imported.taskId, 'continue'], env });
    assert.equal(resumed.code, 0, resumed.stderr);
    const request = fx.server.requestAt(0);
    assert.equal(request.format, 'anthropic');
    const messages = request.body.messages as WireMessage[];
    assert.match(JSON.stringify(messages[0]!.content), /The cart total is wrong, fix it/);
    const assistant = messages[1]!.content as Part[];
    assert.deepEqual(assistant[0], { type: 'thinking', thinking: 'Read cart.ts.', signature: 'EqQBCkYIBxgCKkDsig' });
    assert.deepEqual(assistant[1], { type: 'tool_use', id: 'toolu_01Read', name: 'read_file', input: { path: 'src/cart.ts' } });
    const results = messages[2]!.content as Part[];
    assert.equal(results[0]!.type, 'tool_result');
    assert.equal(results[0]!.tool_use_id, 'toolu_01Read');
    assert.match(JSON.stringify(results[0]!.content), /export const total = 0;/);
    assert.deepEqual(
      (messages[3]!.content as Part[]).find((p) => p.type === 'tool_use'),
      {
        type: 'tool_use',
        id: 'toolu_01Edit',
        name: 'replace_in_file',
        input: { path: 'src/cart.ts', diff: '------- SEARCH\ntotal = 0\n=======\ntotal = sum()\n+++++++ REPLACE' },
      },
    );
    const text = JSON.stringify(messages);
    assert.match(text, /\[Claude Code called its Task tool, which Smith does not have, with .*All 4 cart tests pass\.\]/);
    assert.match(JSON.stringify(messages.at(-1)), /continue/);

    // The import took a checkpoint of the workspace, so the task replays with another model.
    // The replay sends the task, then the message the resume added.
    const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`, usage: { input: 100, output: 10 } });
    fx.server.enqueue(done('Nothing to change.'), done('Still nothing.'));
    const replay = await runCli({
      args: [
        'replay',
        imported.taskId,
        '--provider',
        'openai-compatible',
        '--base-url',
        fx.server.openAiBaseUrl,
        '--model',
        'other-model',
        '--output',
        'json',
        '--storage',
        fx.storage,
      ],
    });
    assert.equal(replay.code, 0, replay.stderr);
    const comparison = JSON.parse(replay.stdout) as ReplayComparison;
    assert.equal(comparison.replay.model, 'other-model');
    assert.equal(comparison.replay.status, 'completed');
    assert.equal(fx.server.requestAt(1).body.model, 'other-model');
    assert.match(allText(fx.server.requestAt(1)), /The cart total is wrong, fix it/);
    assert.match(allText(fx.server.requestAt(2)), /continue/);
  });

  test('a Cline task folder: imported, resumed over the XML protocol with its results as text', async () => {
    fx.ws.write('a.txt', 'new\n');
    const t = new ClineTaskBuilder(fx.ws.root);
    t.task('Change a.txt to say new');
    t.reply('<read_file>\n<path>a.txt</path>\n</read_file>');
    t.result('read_file', 'a.txt', 'old');
    t.checkpoint();
    t.reply('<write_to_file>\n<path>a.txt</path>\n<content>\nnew\n</content>\n</write_to_file>');
    t.result('write_to_file', 'a.txt', 'The content was successfully saved to a.txt.');
    t.reply('<attempt_completion>\n<result>a.txt says new.</result>\n</attempt_completion>');
    const dir = t.write(join(fx.storage, 'vscode'));
    const run = await runCli({ args: ['import', dir, '--storage', fx.storage] });
    assert.equal(run.code, 0, run.stderr);
    const taskId = /as task (\S+)/.exec(run.stdout)?.[1];
    assert.ok(taskId, run.stdout);
    assert.match(run.stdout, /^Imported Cline session \d+ as task \S+ \(\d+ events, workspace .+\)$/m);
    assert.match(run.stdout, /^ {2}- Cline's checkpoints: Smith has no checkpoint from before the import$/m);

    fx.server.enqueue({ text: '<attempt_completion>\n<result>Still new.</result>\n</attempt_completion>' });
    const resumed = await runCli({ args: [...fx.cliArgs(), '--yes', '--resume', taskId, 'Check it again'] });
    assert.equal(resumed.code, 0, resumed.stderr);
    const messages = fx.server.requestAt(0).body.messages as WireMessage[];
    const text = messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
    assert.match(text, /<task>\nChange a\.txt to say new\n<\/task>/);
    assert.match(text, /\[read_file for 'a\.txt'\] Result:\nold/);
    assert.match(text, /\[write_to_file for 'a\.txt'\] Result:\nThe content was successfully saved to a\.txt\./);
    assert.match(text, /<user_message>\nCheck it again\n<\/user_message>/);
    assert.deepEqual(
      messages.filter((m) => m.role === 'assistant').map((m) => m.content),
      [
        '<read_file>\n<path>a.txt</path>\n</read_file>',
        '<write_to_file>\n<path>a.txt</path>\n<content>\nnew\n</content>\n</write_to_file>',
        '<attempt_completion>\n<result>a.txt says new.</result>\n</attempt_completion>',
      ],
    );
  });

  test('bad input: a clear error, exit 1, and nothing in the history', async () => {
    const bad = join(fx.storage, 'bad.jsonl');
    writeFileSync(bad, '{"type":"user","message":{"role":"user","content":"hi"},"uuid":"a","parentUuid":null,"cwd":"/x"}\nnot json\n{"type":"summary"}\n');
    const run = await runCli({ args: ['import', bad, '--storage', fx.storage] });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^smith import: .*bad\.jsonl: line 2 is not JSON/m);
    const folder = join(fx.storage, 'not-a-task');
    mkdirSync(folder);
    const neither = await runCli({ args: ['import', folder, '--storage', fx.storage] });
    assert.equal(neither.code, 1);
    assert.match(neither.stderr, /neither a Claude Code session \(a \.jsonl file\) nor a Cline or Roo Code task folder/);
    const usage = await runCli({ args: ['import', '--from', 'copilot', '--storage', fx.storage] });
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--from must be one of claude-code, cline, roo-code/);
    assert.deepEqual(listStoredTasks(fx.storage), []);
    assert.ok(!existsSync(join(fx.storage, 'tasks')) || readdirSync(join(fx.storage, 'tasks')).length === 0);
  });
});
