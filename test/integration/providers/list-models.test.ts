import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { listModels } from '../../../src/core/providers/list-models.js';
import { ProviderAbortedError, ProviderError } from '../../../src/core/providers/types.js';
import { startScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import type { ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';

async function listError(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ProviderError, String(err));
    return err;
  }
  assert.fail('listModels should have thrown');
}

describe('listModels', () => {
  let server: ScriptedLlmServer;
  let bare: ScriptedLlmServer;
  before(async () => {
    server = await startScriptedLlmServer([], { models: ['qwen3:8b', 'llama3.1:8b', 'qwen3:8b'] });
    bare = await startScriptedLlmServer([], { models: null });
  });
  after(async () => {
    await server.close();
    await bare.close();
  });

  test("lists an openai-compatible server's models, sorted and without duplicates", async () => {
    const ids = await listModels({ provider: 'openai-compatible', model: '', baseUrl: server.openAiBaseUrl });
    assert.deepEqual(ids, ['llama3.1:8b', 'qwen3:8b']);
  });

  test('works for openai with a key', async () => {
    const ids = await listModels({ provider: 'openai', model: 'gpt-5', apiKey: 'k', baseUrl: server.openAiBaseUrl });
    assert.deepEqual(ids, ['llama3.1:8b', 'qwen3:8b']);
  });

  test('a server without /models gets a clear error saying to type the name', async () => {
    const error = await listError(listModels({ provider: 'openai-compatible', model: '', baseUrl: bare.openAiBaseUrl }));
    assert.equal(error.status, 404);
    assert.match(error.message, /does not list its models/);
    assert.match(error.message, /Type the model name/);
    assert.ok(error.message.includes(bare.openAiBaseUrl), error.message);
  });

  test('no base URL for openai-compatible, or another provider, is refused up front', async () => {
    assert.match((await listError(listModels({ provider: 'openai-compatible', model: '' }))).message, /base URL/);
    assert.match((await listError(listModels({ provider: 'anthropic', model: 'x', apiKey: 'k' }))).message, /only supported/);
  });

  test('an unreachable server is a retryable connection error', async () => {
    const closed = await startScriptedLlmServer();
    await closed.close();
    const error = await listError(listModels({ provider: 'openai-compatible', model: '', baseUrl: closed.openAiBaseUrl }));
    assert.equal(error.retryable, true);
    assert.match(error.message, /Could not connect/);
  });

  test('an aborted signal rejects with ProviderAbortedError', async () => {
    const error = await listError(listModels({ provider: 'openai-compatible', model: '', baseUrl: server.openAiBaseUrl }, AbortSignal.abort()));
    assert.ok(error instanceof ProviderAbortedError);
  });
});
