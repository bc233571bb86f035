import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

const complete = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

describe('provider failures and costs through the CLI', () => {
  const fx = useAgentFixture();

  test('a 429 with Retry-After and a 503 are retried visibly, then the task completes', async () => {
    fx.server.enqueue({ fault: 'status', status: 429, retryAfterSeconds: 0 }, { fault: 'status', status: 503, retryAfterSeconds: 0 }, complete('ok'));
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Do it'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /retrying in \d+ s \(attempt 1\/3\)/);
    assert.match(run.stderr, /retrying in \d+ s \(attempt 2\/3\)/);
    assert.equal(fx.server.requests.length, 3);
  });

  test('401 is not retried and the error names the key variable', async () => {
    fx.server.enqueue({ fault: 'status', status: 401, body: { error: { message: 'bad key' } } });
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Do it'] });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /SMITH_API_KEY/);
    assert.equal(fx.server.requests.length, 1);
  });

  test('a stream dropped mid-response is shown as interrupted, nothing in it runs, and the turn is retried', async () => {
    fx.ws.write('keep.txt', 'original\n');
    const halfEdit = '<write_to_file>\n<path>keep.txt</path>\n<content>\nclobbered\n</content>\n</write_to_file>';
    fx.server.enqueue({ fault: 'drop', text: halfEdit, afterChunks: 6, chunkSize: 8 }, (request) => {
      assert.doesNotMatch(allText(request), /clobbered/);
      return complete('Recovered.');
    });
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', 'Edit keep.txt'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /the response was interrupted; nothing from it was run/);
    assert.equal(fx.ws.read('keep.txt'), 'original\n');
    assert.equal(JSON.parse(run.stdout).result, 'Recovered.');
  });

  test('cost is computed from the catalogue (Anthropic wire format) and reported in the JSON output', async () => {
    fx.server.enqueue({ text: '<attempt_completion>\n<result>priced</result>\n</attempt_completion>', usage: { input: 100_000, output: 10_000 } });
    const args = [
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
    const run = await runCli({ args: [...args, '--yes', '--output', 'json', 'Price it'], env: { ANTHROPIC_API_KEY: 'test-key' } });
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout);
    // claude-sonnet-4-5 below its long-context tier: $3 per million input tokens, $15 per million output.
    assert.equal(summary.metadata.tokensUsed.input, 100_000);
    assert.ok(Math.abs(summary.metadata.cost - (0.3 + 0.15)) < 1e-9, `cost was ${summary.metadata.cost}`);
    assert.equal(fx.server.requestAt(0).format, 'anthropic');
  });

  test('an unknown openai-compatible model has no cost unless the user gives prices', async () => {
    fx.server.enqueue(complete('a'), complete('b'));
    const unpriced = JSON.parse((await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', 'x'] })).stdout);
    assert.equal(unpriced.metadata.cost, null);
    const priced = JSON.parse(
      (await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', '--input-price', '1', '--output-price', '2', 'x'] })).stdout,
    );
    assert.equal(typeof priced.metadata.cost, 'number');
    assert.ok(priced.metadata.cost > 0);
  });

  test('a context-length error truncates older turns and retries once', async () => {
    for (const name of ['a', 'b', 'c', 'd']) fx.ws.write(`${name}.txt`, `${name}\n`);
    const read = (name: string) => ({ text: `<read_file>\n<path>${name}.txt</path>\n</read_file>` });
    fx.server.enqueue(read('a'), read('b'), read('c'), read('d'), { fault: 'context-length' }, (request) => {
      assert.match(allText(request), /Some earlier conversation history was removed/);
      return complete('fits now');
    });
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', 'Read a lot'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).result, 'fits now');
  });
});

describe('smith --list-models', () => {
  const fx = useAgentFixture();

  test("lists an OpenAI-compatible endpoint's models, and the catalogue for other vendors", async () => {
    const listed = await runCli({ args: ['--provider', 'openai-compatible', '--base-url', fx.server.openAiBaseUrl, '--list-models'] });
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.stdout, 'scripted-model\n');
    const catalogue = await runCli({ args: ['--provider', 'anthropic', '--list-models'], env: { ANTHROPIC_API_KEY: 'x' } });
    assert.equal(catalogue.code, 0, catalogue.stderr);
    assert.match(catalogue.stdout, /^claude-sonnet-4-5$/m);
  });

  test('--output json prints each model with what is known of it', async () => {
    const listed = await runCli({ args: ['--provider', 'openai-compatible', '--base-url', fx.server.openAiBaseUrl, '--list-models', '--output', 'json'] });
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout), [{ id: 'scripted-model' }]);
    const catalogue = await runCli({ args: ['--provider', 'anthropic', '--list-models', '--output', 'json'], env: { ANTHROPIC_API_KEY: 'x' } });
    assert.equal(catalogue.code, 0, catalogue.stderr);
    const sonnet = (JSON.parse(catalogue.stdout) as { id: string; contextWindow?: number; inputPrice?: number; supportsImages?: boolean }[]).find(
      (m) => m.id === 'claude-sonnet-4-5',
    );
    assert.ok(sonnet && sonnet.contextWindow! > 100_000 && sonnet.inputPrice! > 0 && sonnet.supportsImages === true, JSON.stringify(sonnet));
    const down = await runCli({ args: ['--provider', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--list-models', '--output', 'json'] });
    assert.equal(down.code, 1);
    assert.match(down.stderr, /127\.0\.0\.1:9/);
  });
});
