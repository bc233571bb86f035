import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { answerElicitation, type McpElicitationRequest } from '../../../src/core/mcp/mcp-elicitation.js';
import { ElicitationAnswerError, McpElicitationQueue } from '../../../src/core/mcp/mcp-elicitation-queue.js';

const PARAMS = {
  message: 'Who are you?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } }, required: ['name'] },
};

function context(queue: McpElicitationQueue, signal = new AbortController().signal, timeoutMs = 60_000) {
  const log: string[] = [];
  return { log, context: { server: 's', elicitor: queue.elicit, timeoutMs, signal, log: (level: string, text: string) => void log.push(`${level} ${text}`) } };
}

function nextForm(queue: McpElicitationQueue): Promise<McpElicitationRequest> {
  const waiting = queue.pending()[0];
  if (waiting) return Promise.resolve(waiting);
  return new Promise((resolve) => {
    const off = queue.onChange(() => {
      const first = queue.pending()[0];
      if (first) {
        off();
        resolve(first);
      }
    });
  });
}

describe('the panel queue of forms', () => {
  test('a form waits in the queue until answered; a wrong answer is refused and the form stays', async () => {
    const queue = new McpElicitationQueue();
    const { context: ctx } = context(queue);
    const result = answerElicitation(PARAMS, ctx);
    const form = await nextForm(queue);
    assert.equal(form.message, 'Who are you?');
    assert.throws(
      () => queue.answer(form.id, { action: 'accept', content: { age: -1 } }),
      (error: unknown) => {
        assert.ok(error instanceof ElicitationAnswerError);
        assert.deepEqual(Object.keys(error.fieldErrors).sort(), ['age', 'name']);
        return true;
      },
    );
    assert.equal(queue.pending().length, 1);
    queue.answer(form.id, { action: 'accept', content: { name: 'Ada', age: 36 } });
    assert.deepEqual(await result, { action: 'accept', content: { name: 'Ada', age: 36 } });
    assert.equal(queue.pending().length, 0);
    assert.throws(() => queue.answer(form.id, { action: 'decline' }), /no longer waiting/);
  });

  test('a form the server withdraws leaves the queue and is cancelled', async () => {
    const queue = new McpElicitationQueue();
    const server = new AbortController();
    const { context: ctx, log } = context(queue, server.signal);
    const result = answerElicitation(PARAMS, ctx);
    await nextForm(queue);
    server.abort();
    assert.deepEqual(await result, { action: 'cancel' });
    assert.equal(queue.pending().length, 0);
    assert.ok(log.some((line) => /withdrawn/.test(line)));
  });

  test('a form nobody answers times out: cancelled and gone from the queue', async () => {
    const queue = new McpElicitationQueue();
    const { context: ctx, log } = context(queue, new AbortController().signal, 50);
    const result = answerElicitation(PARAMS, ctx);
    assert.deepEqual(await result, { action: 'cancel' });
    assert.equal(queue.pending().length, 0);
    assert.ok(log.some((line) => /no answer within/.test(line)));
  });

  test('a schema that cannot be a form is declined without asking', async () => {
    const queue = new McpElicitationQueue();
    let asked = false;
    queue.onChange(() => (asked = true));
    const { context: ctx } = context(queue);
    assert.deepEqual(await answerElicitation({ message: 'x', requestedSchema: { type: 'object', properties: { a: { type: 'object' } } } }, ctx), {
      action: 'decline',
    });
    assert.equal(asked, false);
  });
});
