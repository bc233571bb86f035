import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../../helpers/cli-runner.js';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { PROVIDER_IDS } from '../../../src/shared/providers.js';

const reply = (text: string) => ({ text });
const read = (path: string) => reply(`<thinking>Look first.</thinking>\n<read_file>\n<path>${path}</path>\n</read_file>`);
const replace = (path: string, search: string, replacement: string) =>
  reply(
    `I will edit it.\n<replace_in_file>\n<path>${path}</path>\n<diff>\n------- SEARCH\n${search}\n=======\n${replacement}\n+++++++ REPLACE\n</diff>\n</replace_in_file>`,
  );
const complete = (result: string) => reply(`<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`);

describe('smith CLI against the scripted OpenAI-compatible server', () => {
  const fx = useAgentFixture();

  const baseArgs = () => fx.cliArgs();

  test('a multi-step task reads, edits with replace_in_file and completes (JSON output)', async () => {
    fx.ws.write('src/config.ts', 'export const retries = 1;\nexport const name = "app";\n');
    fx.server.enqueue(
      read('src/config.ts'),
      replace('src/config.ts', 'export const retries = 1;', 'export const retries = 3;'),
      complete('Raised retries to 3.'),
    );
    const run = await runCli({ args: [...baseArgs(), '--yes', '--output', 'json', 'Raise the retries to 3'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.ws.read('src/config.ts'), 'export const retries = 3;\nexport const name = "app";\n');
    const summary = JSON.parse(run.stdout);
    assert.equal(summary.success, true);
    assert.equal(summary.result, 'Raised retries to 3.');
    assert.match(summary.taskId, /^\d{8}T\d{6}-[a-z0-9]+$/);
    assert.deepEqual(summary.metadata.toolsUsed, ['read_file', 'replace_in_file', 'attempt_completion']);
    assert.equal(summary.metadata.totalIterations, 3);
    assert.ok(summary.metadata.tokensUsed.input > 0 && summary.metadata.tokensUsed.output > 0);
    assert.equal(typeof summary.metadata.durationMs, 'number');
    const toolSteps = summary.steps.filter((s: { type: string }) => s.type === 'tool');
    assert.deepEqual(toolSteps[0].input, { path: 'src/config.ts' });
    assert.match(toolSteps[0].output, /1 \| export const retries = 1;/);
    // The model saw the file and then the edit result.
    assert.equal(fx.server.requests.length, 3);
    assert.match(lastUserText(fx.server.requestAt(1)), /\[read_file for 'src\/config.ts'\] Result:\n1 \| export const retries = 1;/);
    assert.match(lastUserText(fx.server.requestAt(2)), /The file src\/config.ts was saved successfully/);
    assert.match(fx.server.requestAt(0).body.messages[0].content, /## replace_in_file/);
  });

  test('a SEARCH block that does not match leaves the file untouched and the model retries', async () => {
    const original = 'function greet() {\n  return "hi";\n}\n';
    fx.ws.write('greet.js', original);
    fx.server.enqueue(
      replace('greet.js', 'function greet() {\n  return "hello";\n}', 'function greet() {\n  return "hey";\n}'),
      (request) => {
        assert.match(lastUserText(request), /\[replace_in_file for 'greet.js'\] Error:\nThe edit to greet.js was not applied; the file is unchanged/);
        return replace('greet.js', '  return "hi";', '  return "hey";');
      },
      complete('Greeting changed.'),
    );
    const run = await runCli({ args: [...baseArgs(), '--yes', 'Change the greeting'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'Greeting changed.\n');
    assert.equal(fx.ws.read('greet.js'), 'function greet() {\n  return "hey";\n}\n');
    assert.equal(fx.server.requests.length, 3);
  });

  test('malformed tool XML and a missing parameter are reported to the model, which recovers', async () => {
    fx.ws.write('a.txt', 'alpha\n');
    fx.server.enqueue(
      reply('<read_file>\n<path>a.txt</path>\n'),
      (request) => {
        assert.match(lastUserText(request), /was cut off before its closing tag <\/read_file>/);
        return reply('<read_file>\n</read_file>');
      },
      (request) => {
        assert.match(lastUserText(request), /Missing value for required parameter 'path' of read_file/);
        return read('a.txt');
      },
      complete('Read it.'),
    );
    const run = await runCli({ args: [...baseArgs(), '--yes', 'Read a.txt'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.server.requests.length, 4);
  });

  test('an unknown tool gets a clear error naming the real tools', async () => {
    fx.ws.write('x.txt', 'x\n');
    fx.server.enqueue(reply('<delete_file>\n<path>x.txt</path>\n</delete_file>'), (request) => {
      assert.match(lastUserText(request), /"delete_file" is not a tool\. Use one of: .*read_file/);
      return complete('Left it alone.');
    });
    const run = await runCli({ args: [...baseArgs(), '--yes', 'Delete x.txt'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.ws.read('x.txt'), 'x\n');
  });

  test('a rejected approval with feedback keeps the file and the feedback reaches the model', async () => {
    fx.ws.write('limits.py', 'MAX = 10\n');
    fx.server.enqueue(replace('limits.py', 'MAX = 10', 'MAX = 20'), (request) => {
      assert.match(lastUserText(request), /The user denied this operation and said:\n<feedback>\nkeep it at 10, change MIN instead\n<\/feedback>/);
      return complete('Left MAX unchanged.');
    });
    const run = await runCli({ args: [...baseArgs(), 'Raise MAX'], answers: ['keep it at 10, change MIN instead'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /\? Edit limits\.py \(\+1 -1\)/);
    assert.match(run.stderr, /-MAX = 10\n\+MAX = 20/);
    assert.equal(fx.ws.read('limits.py'), 'MAX = 10\n');
  });

  test('the model that never uses a tool is reminded, then stopped by the mistake limit (exit 1)', async () => {
    fx.server.enqueue(reply('Sure, I can help.'), reply('Here it is.'), reply('Done!'));
    const run = await runCli({ args: [...baseArgs(), '--yes', '--output', 'json', 'Do something'] });
    assert.equal(run.code, 1);
    const summary = JSON.parse(run.stdout);
    assert.equal(summary.success, false);
    assert.equal(summary.result, null);
    assert.match(summary.steps.at(-1).error, /3 consecutive mistakes/);
    assert.match(lastUserText(fx.server.requestAt(1)), /You did not use a tool in your previous response/);
  });

  test('--max-iterations stops a task that does not finish (exit 1)', async () => {
    fx.ws.write('a.txt', 'a\n');
    fx.server.enqueue(read('a.txt'), read('a.txt'));
    const run = await runCli({ args: [...baseArgs(), '--yes', '--max-iterations', '2', 'Loop'] });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Stopped after 2 iterations/);
  });

  test('usage errors exit with 2 and say what is wrong', async () => {
    const badProvider = await runCli({ args: ['--provider', 'nope', 'task'] });
    assert.equal(badProvider.code, 2);
    assert.match(badProvider.stderr, new RegExp(`--provider must be one of ${PROVIDER_IDS.join(', ')}; got "nope"`));
    const badFlag = await runCli({ args: ['--frobnicate'] });
    assert.equal(badFlag.code, 2);
    const noModel = await runCli({ args: ['--provider', 'openai-compatible', '--base-url', fx.server.openAiBaseUrl, 'task'], cwd: fx.ws.root });
    assert.equal(noModel.code, 2);
    assert.match(noModel.stderr, /--model is required for openai-compatible/);
  });

  test('a missing API key is a clear error that names the variable', async () => {
    const run = await runCli({ args: ['--provider', 'openai', '--cwd', fx.ws.root, '--storage', fx.storage, 'task'] });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /OPENAI_API_KEY/);
  });

  test('VS Code language models are refused with a clear error: only the extension can reach them', async () => {
    const run = await runCli({ args: ['--provider', 'vscode-lm', '--cwd', fx.ws.root, '--storage', fx.storage, 'task'] });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /VS Code language models are only available inside VS Code; in the CLI choose another --provider\./);
    const listed = await runCli({ args: ['--provider', 'vscode-lm', '--list-models'] });
    assert.equal(listed.code, 1);
    assert.match(listed.stderr, /VS Code language models are only available inside VS Code; in the CLI choose another --provider\./);
    assert.equal(listed.stdout, '');
  });

  test('the task can be piped on stdin, and the API key never reaches the log or the output', async () => {
    fx.server.enqueue(complete('Nothing to do.'));
    const secret = 'sk-test-secret-123456';
    const run = await runCli({ args: [...baseArgs(), '--yes', '--output', 'json'], stdin: 'Say hello\n', env: { SMITH_API_KEY: secret } });
    assert.equal(run.code, 0, run.stderr);
    const { taskId } = JSON.parse(run.stdout);
    const { readFileSync } = await import('node:fs');
    const logText = readFileSync(join(fx.storage, 'tasks', taskId, 'events.jsonl'), 'utf8');
    assert.match(logText, /Say hello/);
    assert.ok(!logText.includes(secret) && !run.stdout.includes(secret) && !run.stderr.includes(secret));
    assert.equal(fx.server.requestAt(0).headers.authorization, `Bearer ${secret}`);
  });
});
