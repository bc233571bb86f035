import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCli } from '../../helpers/cli-runner.js';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { OLLAMA_SHOW_QWEN, OPENROUTER_MODELS } from '../../fixtures/model-listings.js';

describe('smith --list-models with a preset', () => {
  const fx = useAgentFixture();

  test('--provider openrouter --output json prints each model with the window and prices OpenRouter tells', async (t) => {
    fx.server.models.body = OPENROUTER_MODELS;
    t.after(() => delete fx.server.models.body);
    const run = await runCli({
      args: ['--provider', 'openrouter', '--base-url', fx.server.openAiBaseUrl, '--list-models', '--output', 'json', '--storage', fx.storage],
      env: { OPENROUTER_API_KEY: 'or-key' },
    });
    assert.equal(run.code, 0, run.stderr);
    const sonnet = (JSON.parse(run.stdout) as Record<string, unknown>[]).find((m) => m.id === 'anthropic/claude-sonnet-4.5');
    assert.deepEqual(sonnet, {
      id: 'anthropic/claude-sonnet-4.5',
      contextWindow: 1_000_000,
      maxOutputTokens: 64_000,
      inputPrice: 3,
      outputPrice: 15,
      cacheReadPrice: 0.3,
      cacheWritePrice: 3.75,
      supportsImages: true,
      supportsTools: true,
      supportsReasoning: true,
    });
    assert.equal(fx.server.models.headers.at(-1)?.authorization, 'Bearer or-key');
  });

  test('--provider ollama needs no key and lists what /api/show says', async (t) => {
    fx.server.models.ollama = { 'qwen2.5-coder:7b': OLLAMA_SHOW_QWEN };
    t.after(() => delete fx.server.models.ollama);
    const run = await runCli({
      args: ['--provider', 'ollama', '--base-url', fx.server.openAiBaseUrl, '--list-models', '--output', 'json', '--storage', fx.storage],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), [
      { id: 'qwen2.5-coder:7b', contextWindow: 32_768, inputPrice: 0, outputPrice: 0, supportsImages: true, supportsTools: true, supportsReasoning: false },
    ]);
  });

  test('a /models answering garbage is named on stderr and exits 1', async (t) => {
    fx.server.models.body = '<html>proxy login</html>';
    t.after(() => delete fx.server.models.body);
    const run = await runCli({
      args: ['--provider', 'groq', '--base-url', fx.server.openAiBaseUrl, '--list-models', '--output', 'json', '--storage', fx.storage],
      env: { GROQ_API_KEY: 'k' },
    });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Groq answered GET \/models at .* with something that is not JSON \(text\/html; charset=utf-8\): <html>proxy login<\/html>/);
    assert.deepEqual(JSON.parse(run.stdout), []);
  });

  test('when /models fails, the list the server gave last time is printed, and said to be the stored one', async (t) => {
    t.after(() => delete fx.server.models.body);
    const args = ['--provider', 'groq', '--base-url', fx.server.openAiBaseUrl, '--list-models', '--output', 'json', '--storage', fx.storage];
    fx.server.models.body = JSON.stringify({
      object: 'list',
      data: [
        { id: 'llama-3.3-70b-versatile', object: 'model' },
        { id: 'qwen-qwq-32b', object: 'model' },
      ],
    });
    const first = await runCli({ args, env: { GROQ_API_KEY: 'k' } });
    assert.equal(first.code, 0, first.stderr);
    const listed = (JSON.parse(first.stdout) as { id: string }[]).map((m) => m.id);
    assert.deepEqual(listed, ['llama-3.3-70b-versatile', 'qwen-qwq-32b']);
    fx.server.models.body = '<html>proxy login</html>';
    const second = await runCli({ args, env: { GROQ_API_KEY: 'k' } });
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(
      (JSON.parse(second.stdout) as { id: string }[]).map((m) => m.id),
      listed,
    );
    assert.match(second.stderr, /something that is not JSON/);
    assert.match(second.stderr, /this is the list the server gave on \d{4}-\d\d-\d\dT/);
  });
});
