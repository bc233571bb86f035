// A stalled or misdirected model request as the Task sees it: a stall is abandoned after the idle
// time and retried, each retry is an event the panel shows; a page that is not an event stream
// fails the task with a provider error instead of counting as the model's mistakes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import type { ProviderId } from '../../../src/core/providers/types.js';
import type { RequestRetried } from '../../../src/core/log/conversation-events.js';
import { Task, type TaskUpdate } from '../../../src/core/task/task.js';
import { uiProjection } from '../../../src/core/task/ui-projection.js';
import type { UiRetryMessage } from '../../../src/shared/ui-messages.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const VENDORS: readonly ProviderId[] = ['openai', 'anthropic', 'gemini'];
const COMPLETION = '<attempt_completion>\n<result>Done after the stalls.</result>\n</attempt_completion>';

describe('stalled and misdirected requests through the Task', () => {
  const fixture = useTaskFixture();

  async function startTask(vendor: ProviderId, idleTimeoutMs?: number): Promise<Task> {
    const baseUrl =
      vendor === 'anthropic' ? fixture.server.anthropicBaseUrl : vendor === 'gemini' ? fixture.server.geminiBaseUrl : fixture.server.openAiBaseUrl;
    const provider = createProvider({ provider: vendor, model: 'scripted-model', apiKey: 'test-key', baseUrl, ...(idleTimeoutMs ? { idleTimeoutMs } : {}) });
    const harness = new ToolHarness(fixture.ws.root);
    const environment = await fixture.environment(provider, harness.host);
    // The backoff waits are skipped; the idle time itself is real.
    return Task.create({ ...environment.options, retry: { sleep: async () => undefined } }, 'Finish');
  }

  for (const vendor of VENDORS) {
    test(`${vendor}: a request with no answer and a stream that stalls mid-response are both retried, visibly`, async () => {
      fixture.server.enqueue({ fault: 'hang' }, { fault: 'stall', text: COMPLETION, afterChunks: 3, chunkSize: 6 }, { text: COMPLETION });
      // Long enough that a busy machine answering late is not taken for a stall.
      const task = await startTask(vendor, 2_000);
      const updates: TaskUpdate[] = [];
      task.onUpdate((update) => void updates.push(update));

      const outcome = await task.run();

      assert.equal(outcome.status, 'completed', JSON.stringify(task.log.events.at(-1)));
      assert.equal(fixture.server.requests.length, 3);
      const retried = task.log.events.filter((e): e is RequestRetried => e.type === 'request_retried');
      assert.equal(retried.length, 2);
      assert.match(retried[0]!.reason, /No data from \w+ for 2 s before the response started \(the idle timeout\)/);
      assert.match(retried[1]!.reason, /No data from \w+ for 2 s after the response started \(the idle timeout\)/);
      for (const retry of retried) {
        assert.equal(retry.attempt, 1);
        assert.equal(retry.maxRetries, 3);
      }
      // The half-streamed response is shown as interrupted and nothing in it ran.
      assert.ok(task.log.events.some((e) => e.type === 'response_interrupted'));
      assert.equal(updates.filter((u) => u.type === 'retry').length, 2, 'the status bar is still told');

      const cards = uiProjection(task.log.events).filter((m): m is UiRetryMessage => m.kind === 'retry');
      assert.deepEqual(
        cards.map((card) => ({ attempt: card.attempt, maxRetries: card.maxRetries, idle: /idle timeout/.test(card.reason) })),
        [
          { attempt: 1, maxRetries: 3, idle: true },
          { attempt: 1, maxRetries: 3, idle: true },
        ],
      );
    });

    test(`${vendor}: an HTML page answered with 200 fails the task with a provider error, not the model's mistakes`, async () => {
      fixture.server.enqueue({ fault: 'not-a-stream' });
      const task = await startTask(vendor);

      const outcome = await task.run();

      assert.equal(outcome.status, 'failed');
      const error = outcome.status === 'failed' ? outcome.error : '';
      assert.match(error, /answered HTTP 200 with content type "text\/html; charset=utf-8", not the event stream/);
      assert.ok(error.includes(`${fixture.server.url}${fixture.server.requestAt(0).path}`), error);
      assert.doesNotMatch(error, /mistake/i);
      assert.equal(fixture.server.requests.length, 1, 'not retried');
      assert.ok(!task.log.events.some((e) => e.type === 'no_tool_used' || e.type === 'request_retried'));
    });
  }
});
