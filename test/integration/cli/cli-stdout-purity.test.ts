// Under --output json and stream-json, stdout carries the documented JSON and nothing else, with
// each provider's official SDK on the path (against the local scripted server). The Vertex Gemini
// case makes the Google Gen AI SDK print its "API key will take precedence" line (a console.debug,
// which Node writes to stdout); a configuration error still gives the JSON summary.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

const done = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

/** Each stdout line parsed; fails on any line that is not a JSON object. */
function jsonLines(stdout: string): Record<string, unknown>[] {
  const lines = stdout.split('\n').filter((line) => line !== '');
  return lines.map((line) => {
    let value: unknown;
    assert.doesNotThrow(() => {
      value = JSON.parse(line);
    }, `stdout line is not JSON: ${line}`);
    assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value), `stdout line is not a JSON object: ${line}`);
    return value as Record<string, unknown>;
  });
}

describe('smith CLI: nothing but the documented JSON on stdout', () => {
  const fixture = useAgentFixture();

  const providers: { name: string; args: () => string[]; env: Record<string, string> }[] = [
    {
      name: 'openai-compatible (openai SDK)',
      args: () => ['--provider', 'openai-compatible', '--base-url', fixture.server.openAiBaseUrl, '--model', 'scripted-model'],
      env: {},
    },
    {
      name: 'anthropic (Anthropic SDK)',
      args: () => ['--provider', 'anthropic', '--base-url', fixture.server.anthropicBaseUrl, '--model', 'claude-sonnet-4-5'],
      env: { ANTHROPIC_API_KEY: 'sk-ant-scripted' },
    },
    {
      name: 'gemini (Google Gen AI SDK)',
      args: () => ['--provider', 'gemini', '--base-url', fixture.server.geminiBaseUrl, '--model', 'gemini-2.5-flash'],
      env: { GEMINI_API_KEY: 'gemini-scripted' },
    },
    {
      name: 'vertex-gemini with an API key while a project is set (the SDK prints a console.debug line)',
      args: () => ['--provider', 'vertex-gemini', '--base-url', fixture.server.geminiBaseUrl, '--model', 'gemini-2.5-flash'],
      env: { VERTEX_API_KEY: 'vertex-express-scripted', GOOGLE_CLOUD_PROJECT: 'smith-test', GOOGLE_CLOUD_LOCATION: 'us-central1' },
    },
    {
      name: 'bedrock (Anthropic Bedrock SDK, AWS credential chain)',
      args: () => ['--provider', 'bedrock', '--base-url', fixture.server.url, '--model', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'],
      env: { AWS_BEARER_TOKEN_BEDROCK: 'bedrock-api-key-example', AWS_REGION: 'us-west-2', AWS_EC2_METADATA_DISABLED: 'true' },
    },
  ];

  for (const provider of providers) {
    for (const output of ['json', 'stream-json'] as const) {
      test(`${provider.name}, --output ${output}`, async () => {
        fixture.server.requests.length = 0;
        fixture.server.enqueue(done);
        const run = await runCli({
          args: [...provider.args(), '--cwd', fixture.ws.root, '--storage', fixture.storage, '--yes', '--output', output, 'Say done'],
          env: provider.env,
          stdin: '',
        });
        assert.equal(run.code, 0, run.stderr);
        assert.ok(fixture.server.requests.length >= 1, 'the request reached the scripted server');
        const lines = jsonLines(run.stdout);
        if (output === 'json') {
          assert.equal(lines.length, 1, run.stdout);
          assert.equal(lines[0]!.success, true);
          assert.equal(lines[0]!.result, 'Done.');
        } else {
          assert.equal(lines.at(-1)!.type, 'summary');
          assert.equal(lines.at(-1)!.success, true);
        }
        if (provider.name.startsWith('vertex-gemini')) assert.match(run.stderr, /API key will take precedence/, "the SDK's line went to stderr");
      });
    }
  }

  test('a configuration error before the task starts still prints the JSON summary, with the message', async () => {
    for (const output of ['json', 'stream-json'] as const) {
      const run = await runCli({
        args: ['--provider', 'anthropic', '--cwd', fixture.ws.root, '--storage', fixture.storage, '--output', output, 'Say done'],
        stdin: '',
      });
      assert.equal(run.code, 1);
      const lines = jsonLines(run.stdout);
      assert.equal(lines.length, 1, run.stdout);
      assert.equal(lines[0]!.success, false);
      assert.equal(lines[0]!.taskId, null);
      assert.match(String(lines[0]!.error), /No API key for Anthropic/);
      if (output === 'stream-json') assert.equal(lines[0]!.type, 'summary');
      assert.match(run.stderr, /smith: No API key for Anthropic/);
    }
    const usage = await runCli({ args: ['--output=json', '--max-cost', 'lots', 'Say done'], stdin: '' });
    assert.equal(usage.code, 2);
    assert.match(String(jsonLines(usage.stdout)[0]!.error), /--max-cost must be a positive number/);
  });
});
