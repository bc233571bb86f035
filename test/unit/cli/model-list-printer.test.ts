import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeModel, formatModelList } from '../../../src/cli/model-list-printer.js';

const listed = {
  source: 'server' as const,
  models: [
    {
      id: 'anthropic/claude-sonnet-4.5',
      contextWindow: 1_000_000,
      inputPrice: 3,
      outputPrice: 15,
      supportsImages: true,
      supportsTools: true,
      supportsReasoning: true,
    },
    { id: 'qwen2.5-coder:7b', contextWindow: 32_768, inputPrice: 0, outputPrice: 0, supportsTools: true },
    { id: 'mystery' },
  ],
};

test('piped, --list-models prints one id per line, for scripts', () => {
  assert.equal(formatModelList(listed, false), 'anthropic/claude-sonnet-4.5\nqwen2.5-coder:7b\nmystery\n');
});

test('on a terminal each id is followed by what is known of the model', () => {
  assert.equal(
    formatModelList(listed, true),
    'anthropic/claude-sonnet-4.5  1M window · $3 / $15 per M · images · tools · reasoning\n' +
      'qwen2.5-coder:7b             32.8k window · free · tools\n' +
      'mystery\n',
  );
  assert.equal(describeModel({ id: 'x', inputPrice: 1 }), '', 'one price alone is not a cost');
});
