import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { createTaskEnvironment } from '../../../src/core/session/task-environment.js';
import { APPROVE_ALL_POLICY } from '../../../src/core/log/approval-policy.js';
import { Task } from '../../../src/core/task/task.js';
import { OLLAMA_SHOW_QWEN, OPENROUTER_MODELS } from '../../fixtures/model-listings.js';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

describe('a task uses the facts its provider tells, with no numbers typed', () => {
  const fixture = useAgentFixture();

  async function environment(provider: ReturnType<typeof createProvider>, extra: { modelOverrides?: { contextWindow?: number } } = {}) {
    return createTaskEnvironment({
      cwd: fixture.ws.root,
      storageDir: fixture.storage,
      host: new ToolHarness(fixture.ws.root).host,
      provider,
      policy: APPROVE_ALL_POLICY,
      maxIterations: 5,
      ...extra,
    });
  }

  test('OpenRouter: the window and prices from its /models give the task its cost and context limits', async (t) => {
    fixture.server.models.body = OPENROUTER_MODELS;
    t.after(() => delete fixture.server.models.body);
    const provider = createProvider({ provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5', apiKey: 'k', baseUrl: fixture.server.openAiBaseUrl });
    const env = await environment(provider);
    const info = env.options.modelInfo?.(provider);
    assert.deepEqual([info?.contextWindow, info?.maxOutputTokens, info?.inputPrice, info?.outputPrice, info?.supportsImages], [1_000_000, 64_000, 3, 15, true]);
    const task = await Task.create(env.options, 'Work');
    fixture.server.enqueue({ text: 'SUMMARY: nothing yet.', usage: { input: 10_000, output: 1_000 } });
    await task.condense();
    const condensed = task.log.events.find((e) => e.type === 'history_condensed');
    assert.ok(condensed && condensed.type === 'history_condensed');
    // 10,000 × $3 + 1,000 × $15 per million.
    assert.ok(Math.abs(condensed.cost! - 0.045) < 1e-12, String(condensed.cost));
    await env.dispose();
  });

  test("Ollama: the window it serves, at no cost; the user's own window still wins", async (t) => {
    fixture.server.models.ollama = { 'qwen2.5-coder:7b': OLLAMA_SHOW_QWEN };
    t.after(() => delete fixture.server.models.ollama);
    const provider = createProvider({ provider: 'ollama', model: 'qwen2.5-coder:7b', baseUrl: fixture.server.openAiBaseUrl });
    const env = await environment(provider);
    const info = env.options.modelInfo?.(provider);
    assert.deepEqual([info?.contextWindow, info?.inputPrice, info?.outputPrice, info?.supportsImages], [32_768, 0, 0, true]);
    await env.dispose();
    const typed = await environment(provider, { modelOverrides: { contextWindow: 16_384 } });
    assert.equal(typed.options.modelInfo?.(provider)?.contextWindow, 16_384);
    await typed.dispose();
  });

  test('a server that says nothing leaves the model unknown, as before: no cost and no guessed window', async () => {
    const provider = createProvider({ provider: 'openai-compatible', model: 'scripted-model', baseUrl: fixture.server.openAiBaseUrl });
    const env = await environment(provider);
    assert.equal(env.options.modelInfo?.(provider), undefined);
    await env.dispose();
  });
});
