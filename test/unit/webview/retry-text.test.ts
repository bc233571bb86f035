import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { retryText } from '../../../src/shared/retry-text.js';

describe('retryText', () => {
  const retry = { attempt: 2, maxRetries: 3, delayMs: 4200, reason: 'Rate limited (HTTP 429)' };

  test('names the reason as a sentence, the whole wait and the attempt', () => {
    assert.equal(retryText(retry), 'Rate limited (HTTP 429). Retrying in 4 s (attempt 2 of 3).');
    assert.equal(retryText({ ...retry, reason: 'Dropped stream.' }), 'Dropped stream. Retrying in 4 s (attempt 2 of 3).');
    assert.equal(retryText({ ...retry, delayMs: 100 }), 'Rate limited (HTTP 429). Retrying in 1 s (attempt 2 of 3).', 'never "in 0 s"');
  });

  test('counts down while it runs, then says it retries now', () => {
    assert.equal(retryText(retry, 2), 'Rate limited (HTTP 429). Retrying in 2 s (attempt 2 of 3).');
    assert.equal(retryText(retry, 0), 'Rate limited (HTTP 429). Retrying now (attempt 2 of 3).');
  });
});
