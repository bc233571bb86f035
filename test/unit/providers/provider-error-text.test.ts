import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { asSentence, httpStatusError, midStreamErrorEvent, otherError } from '../../../src/core/providers/provider-errors.js';

const context = { label: 'the OpenAI-compatible server', model: 'm', baseUrl: 'http://127.0.0.1:1/v1', keySource: 'SMITH_API_KEY', apiKey: 'sk-secret' };

describe('provider error texts read as sentences', () => {
  test("a server's words end with a full stop, whatever they ended with", () => {
    assert.equal(asSentence('model overloaded '), 'model overloaded.');
    assert.equal(asSentence('Try again later.'), 'Try again later.');
    assert.equal(asSentence('Really?'), 'Really?');
  });

  test('every kind of error ends a sentence', () => {
    const messages = [
      httpStatusError(500, 'scripted: internal server error', context).message,
      httpStatusError(400, 'unknown parameter: foo', context).message,
      httpStatusError(400, '', context).message,
      httpStatusError(429, 'slow down', context).message,
      httpStatusError(401, 'invalid key sk-secret', context).message,
      midStreamErrorEvent('overloaded', undefined, context).message,
      otherError(new Error('something odd'), context, false).message,
    ];
    for (const message of messages) assert.match(message, /[.!?]$/, message);
    assert.equal(messages[1], 'The OpenAI-compatible server rejected the request (HTTP 400): unknown parameter: foo.');
    assert.ok(
      messages.every((message) => !message.includes('sk-secret')),
      'the key stays redacted',
    );
  });
});
