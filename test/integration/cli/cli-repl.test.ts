import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { CLI_PATH } from '../../helpers/cli-runner.js';
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

/** Runs the CLI on a real pseudo-terminal (util-linux `script`), so it starts its REPL. */
function startRepl() {
  const command = [process.execPath, CLI_PATH, '--provider', 'openai-compatible', '--base-url', server.openAiBaseUrl, '--model', 'scripted-model', '--cwd', ws.root, '--storage', storage, '--yes']
    .map((part) => `'${part}'`)
    .join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const prompts = () => output.split('smith> ').length - 1;
  return {
    get output() {
      return output;
    },
    async type(line: string, waitForPrompts: number) {
      for (let waited = 0; prompts() < waitForPrompts; waited += 50) {
        if (waited > 20_000) throw new Error(`no prompt #${waitForPrompts}; output so far:\n${output}`);
        await sleep(50);
      }
      child.stdin.write(`${line}\r`);
    },
    interrupt: () => child.stdin.write('\x03'),
    exited,
  };
}

test('the REPL runs a task, continues it, shows its events and history, and Ctrl+C stops a step', async () => {
  ws.write('a.txt', 'alpha\n');
  server.enqueue(
    { text: '<read_file>\n<path>a.txt</path>\n</read_file>' },
    { text: '<attempt_completion>\n<result>It says alpha.</result>\n</attempt_completion>' },
    (request) => {
      const contents = (request.body.messages as Array<{ content: string }>).map((m) => m.content).join('\n');
      assert.match(contents, /<user_message>\nAnd in capitals\?\n<\/user_message>/);
      assert.match(contents, /1 \| alpha/);
      return { text: '<attempt_completion>\n<result>ALPHA</result>\n</attempt_completion>' };
    },
    { fault: 'hang' },
  );
  const repl = startRepl();
  await repl.type('What does a.txt say?', 1);
  await repl.type('And in capitals?', 2);
  await repl.type('/events', 3);
  await repl.type('/history', 4);
  await repl.type('/mode plan', 5);
  await repl.type('Now hang', 6);
  for (let waited = 0; server.requests.length < 4; waited += 50) {
    assert.ok(waited < 20_000, 'the fourth request never came');
    await sleep(50);
  }
  repl.interrupt();
  await repl.type('/exit', 7);
  assert.equal(await repl.exited, 0);
  const out = repl.output;
  assert.match(out, /It says alpha\./);
  assert.match(out, /ALPHA/);
  assert.match(out, /"type":"task_started"/);
  assert.match(out, /\d{8}T\d{6}-\w+\s+completed\s+What does a\.txt say\?/);
  assert.match(out, /Mode: plan/);
  assert.match(out, /Stopping the current step/);
  assert.match(out, /Task stopped\./);
});
