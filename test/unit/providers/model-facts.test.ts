import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { modelInfo } from '../../../src/core/providers/model-catalog.js';
import { factsFromLmStudio, factsFromModelList, factsFromOllamaShow, hasUsefulFacts, namesFromOllamaTags } from '../../../src/core/providers/model-facts.js';
import {
  GROQ_MODELS,
  LM_STUDIO_MODELS,
  MISTRAL_MODELS,
  OLLAMA_SHOW_LLAMA,
  OLLAMA_SHOW_QWEN,
  OPENROUTER_MODELS,
  TOGETHER_MODELS,
  VLLM_MODELS,
} from '../../fixtures/model-listings.js';

describe('model facts as each service tells them', () => {
  test('OpenRouter: window, output cap, per-token prices as dollars per million, images, tools, reasoning', () => {
    const [sonnet, coder, auto] = factsFromModelList(OPENROUTER_MODELS, 'openrouter');
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
    assert.deepEqual(coder, {
      id: 'qwen/qwen3-coder',
      contextWindow: 262_144,
      inputPrice: 0.22,
      outputPrice: 0.95,
      supportsImages: false,
      supportsTools: true,
      supportsReasoning: false,
    });
    // A router's "-1" is no price: its cost stays unknown rather than negative.
    assert.equal(auto?.inputPrice, undefined);
    assert.equal(auto?.contextWindow, 2_000_000);
  });

  test('Together: a bare array, prices already per million', () => {
    assert.deepEqual(factsFromModelList(TOGETHER_MODELS, 'together'), [
      { id: 'meta-llama/Llama-3.3-70B-Instruct-Turbo', contextWindow: 131_072, inputPrice: 0.88, outputPrice: 0.88 },
    ]);
  });

  test('Groq, Mistral and vLLM: their own names for the window and capabilities, and no prices', () => {
    assert.deepEqual(factsFromModelList(GROQ_MODELS, 'openai'), [{ id: 'llama-3.3-70b-versatile', contextWindow: 131_072, maxOutputTokens: 32_768 }]);
    assert.deepEqual(factsFromModelList(MISTRAL_MODELS, 'openai'), [
      { id: 'mistral-large-latest', contextWindow: 131_072, supportsImages: true, supportsTools: true },
    ]);
    assert.deepEqual(factsFromModelList(VLLM_MODELS, 'openai'), [{ id: 'Qwen/Qwen2.5-Coder-32B-Instruct', contextWindow: 32_768 }]);
  });

  test('prices are only read where the listing is known to carry them', () => {
    const [sonnet] = factsFromModelList(OPENROUTER_MODELS, 'openai');
    assert.equal(sonnet?.inputPrice, undefined);
  });

  test('Ollama: the num_ctx it serves wins over the trained window; capabilities; free', () => {
    assert.deepEqual(factsFromOllamaShow('qwen2.5-coder:7b', OLLAMA_SHOW_QWEN), {
      id: 'qwen2.5-coder:7b',
      contextWindow: 32_768,
      inputPrice: 0,
      outputPrice: 0,
      supportsImages: true,
      supportsTools: true,
      supportsReasoning: false,
    });
    assert.equal(factsFromOllamaShow('llama3.1', OLLAMA_SHOW_LLAMA).contextWindow, 131_072);
    assert.deepEqual(namesFromOllamaTags({ models: [{ name: 'a:latest' }, { nope: 1 }, { name: 'b' }] }), ['a:latest', 'b']);
  });

  test('LM Studio: the loaded window, vlm for images, tool_use, embeddings left out, free', () => {
    assert.deepEqual(factsFromLmStudio(LM_STUDIO_MODELS), [
      { id: 'meta-llama-3.1-8b-instruct', contextWindow: 8192, inputPrice: 0, outputPrice: 0, supportsImages: false, supportsTools: true },
      { id: 'qwen2-vl-7b-instruct', contextWindow: 32_768, inputPrice: 0, outputPrice: 0, supportsImages: true },
    ]);
  });

  test('garbage: not a list is an error; entries without an id and values of the wrong type are left out', () => {
    assert.throws(() => factsFromModelList({ models: [] }, 'openai'), /expected a list of models/);
    assert.throws(() => factsFromModelList('<html>', 'openai'), /expected a list of models/);
    assert.throws(() => factsFromOllamaShow('x', []), /expected a JSON object/);
    assert.throws(() => namesFromOllamaTags({}), /models/);
    assert.throws(() => factsFromLmStudio(null), /data/);
    const odd = factsFromModelList(
      {
        data: [
          { id: '' },
          7,
          null,
          { id: 'ok', context_length: '128000', pricing: { prompt: 'free', completion: {} }, architecture: { input_modalities: 'image' } },
        ],
      },
      'openrouter',
    );
    assert.deepEqual(odd, [{ id: 'ok' }]);
  });

  test("what the provider tells fills in an unknown model; the user's settings still win", () => {
    const [sonnet] = factsFromModelList(OPENROUTER_MODELS, 'openrouter');
    assert.ok(sonnet && hasUsefulFacts(sonnet));
    assert.equal(hasUsefulFacts({ id: 'bare' }), false);
    const info = modelInfo('openrouter', sonnet.id, {}, sonnet);
    assert.equal(info.contextWindow, 1_000_000);
    assert.equal(info.inputPrice, 3);
    assert.equal(info.supportsImages, true);
    assert.equal('supportsTools' in info, false);
    assert.equal(modelInfo('openrouter', sonnet.id, { contextWindow: 200_000 }, sonnet).contextWindow, 200_000);
    // A fact the provider left out comes from the catalogue, for an Azure deployment named after its model.
    assert.equal(modelInfo('azure-openai', 'gpt-4.1', {}, { id: 'gpt-4.1', contextWindow: 500_000 }).inputPrice, 2);
  });
});
