// The user's API key stays out of everything Smith produces: the requests to the model, the task
// log and the terminal — also when a command the model runs prints it (env, cat .env), and when it
// arrives split across streamed chunks.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../../helpers/cli-runner.js';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';

const KEY = 'sk-live-7fQ2x9LmZp4RtW8vKc3N';
const command = (cmd: string) => ({ text: `<execute_command>\n<command>${cmd}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` });
const complete = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

function taskLogs(storage: string): string {
  const root = join(storage, 'tasks');
  return readdirSync(root)
    .map((id) => readFileSync(join(root, id, 'events.jsonl'), 'utf8'))
    .join('\n');
}

describe('smith CLI keeps the API key secret', () => {
  const fx = useAgentFixture();

  test('a key printed by env and cat .env reaches neither the model, the log nor the output', async () => {
    fx.ws.write('.env', `DATABASE_URL=postgres://localhost/app\nSMITH_API_KEY=${KEY}\n`);
    fx.server.enqueue(command('env'), command('cat .env'), complete('Checked the environment.'));
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--verbose', 'Show me the environment'], env: { SMITH_API_KEY: KEY } });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.server.requests.length, 3);
    // The commands ran and their other output reached the model.
    assert.match(lastUserText(fx.server.requestAt(1)), /PATH=/);
    assert.match(lastUserText(fx.server.requestAt(2)), /DATABASE_URL=postgres:\/\/localhost\/app\nSMITH_API_KEY=\[REDACTED\]/);
    for (const request of fx.server.requests) assert.ok(!JSON.stringify(request.body).includes(KEY), 'a request body holds the key');
    const log = taskLogs(fx.storage);
    assert.match(log, /SMITH_API_KEY=\[REDACTED\]/);
    assert.ok(!log.includes(KEY), 'events.jsonl holds the key');
    assert.ok(!run.stdout.includes(KEY) && !run.stderr.includes(KEY), 'the output shows the key');
    assert.match(run.stderr, /SMITH_API_KEY=\[REDACTED\]/);
  });

  test('a key the model writes, split across streamed chunks, is not shown, logged or sent back', async () => {
    fx.server.enqueue({ text: `The key is ${KEY}, noted.\n${complete(`Your key ${KEY} works.`).text}`, chunkSize: 5 });
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', 'What is my key?'], env: { SMITH_API_KEY: KEY } });
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout);
    assert.equal(summary.result, 'Your key [REDACTED] works.');
    assert.ok(!run.stdout.includes(KEY) && !run.stderr.includes(KEY));
    assert.ok(!taskLogs(fx.storage).includes(KEY));
  });

  test('streamed text keeps its words when a chunk ends with what could be the start of the key', async () => {
    fx.server.enqueue({ text: `Almost sk-live but not.\n${complete('Done.').text}`, chunkSize: 3 });
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Say it'], env: { SMITH_API_KEY: KEY } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Almost sk-live but not\./);
    assert.equal(run.stdout, 'Done.\n');
  });
});
