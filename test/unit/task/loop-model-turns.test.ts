// What the loop does with what a model sends, in-process against a scripted model: provider errors
// (final, retried, broken mid-stream), reasoning and usage in the log, and native tool calls.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProviderError } from '../../../src/core/providers/types.js';
import { Task } from '../../../src/core/task/task.js';
import { useInMemoryTask } from '../../helpers/in-memory-task.js';
import { completeTurn, ScriptedProvider } from '../../helpers/scripted-provider.js';

const NO_WAIT = { maxRetries: 2, sleep: async () => {} };

describe('loop model turns (in-process)', () => {
  const fixture = useInMemoryTask();

  test('a provider error that is not retried fails the run with its message, logged as an error', async () => {
    fixture.provider.enqueue({ error: new ProviderError('Anthropic rejected the API key (401).', 401) });
    const task = Task.create(fixture.options({ retry: NO_WAIT }), 'Do it');
    assert.deepEqual(await task.run(), { status: 'failed', error: 'Anthropic rejected the API key (401).' });
    assert.equal(fixture.provider.requests.length, 1, 'a 401 was retried');
    const last = task.log.events.at(-1);
    assert.deepEqual(last?.type === 'error' && last.message, 'Anthropic rejected the API key (401).');
  });

  test('a retryable error is retried with the wait logged, and the run goes on', async () => {
    fixture.provider.enqueue({ error: new ProviderError('Server overloaded (529).', 529, true) }, completeTurn());
    const task = Task.create(fixture.options({ retry: NO_WAIT }), 'Do it');
    assert.deepEqual(await task.run(), { status: 'completed', result: 'Done.' });
    assert.equal(fixture.provider.requests.length, 2);
    const retried = task.log.events.filter((e) => e.type === 'request_retried');
    assert.deepEqual(
      retried.map((e) => (e.type === 'request_retried' ? [e.attempt, e.maxRetries, e.reason] : [])),
      [[1, 2, 'Server overloaded (529).']],
    );
  });

  test('a stream that breaks mid-answer is made again; the broken part is logged as interrupted and never run', async () => {
    fixture.provider.enqueue(
      { text: '<write_to_file>\n<path>x.txt</path>\n<content>half', error: new ProviderError('Connection reset.', undefined, true) },
      completeTurn(),
    );
    const task = Task.create(fixture.options({ retry: NO_WAIT }), 'Do it');
    assert.deepEqual(await task.run(), { status: 'completed', result: 'Done.' });
    const cut = task.log.events.find((e) => e.type === 'response_interrupted');
    assert.ok(cut?.type === 'response_interrupted' && cut.partialText.startsWith('<write_to_file>'), JSON.stringify(cut));
    assert.deepEqual(
      task.log.events.flatMap((e) => (e.type === 'tool_requested' ? [e.tool] : [])),
      ['attempt_completion'],
    );
  });

  test('the script running out is a clear failure, not a hang', async () => {
    const outcome = await Task.create(fixture.options(), 'Do it').run();
    assert.deepEqual(outcome, { status: 'failed', error: 'the script has no turn for request 1' });
  });

  test('reasoning and usage of a response are logged with it', async () => {
    fixture.provider.enqueue({ ...completeTurn(), reasoning: 'The task is trivial.', usage: { inputTokens: 1200, outputTokens: 30, cacheReadTokens: 1000 } });
    const task = Task.create(fixture.options(), 'Do it');
    await task.run();
    const response = task.log.events.find((e) => e.type === 'model_response');
    assert.ok(response?.type === 'model_response');
    assert.equal(response.reasoning, 'The task is trivial.');
    assert.deepEqual(response.usage, { inputTokens: 1200, outputTokens: 30, cacheReadTokens: 1000 });
  });

  test('native tool calls: the request offers the tools, every call of a response runs in order', async () => {
    fixture.ws.write('a.txt', 'alpha\n');
    fixture.ws.write('b.txt', 'beta\n');
    fixture.provider = new ScriptedProvider({ toolProtocol: 'native' });
    fixture.provider.enqueue(
      {
        toolCalls: [
          { name: 'read_file', input: { path: 'a.txt' } },
          { name: 'read_file', input: { path: 'b.txt' } },
        ],
      },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'Read both.' } }] },
    );
    const task = Task.create(fixture.options(), 'Read both');
    assert.deepEqual(await task.run(), { status: 'completed', result: 'Read both.' });

    assert.ok(fixture.provider.requests[0]!.tools?.some((t) => t.name === 'read_file'));
    const results = task.log.events.flatMap((e) => (e.type === 'tool_result' ? [e.output] : []));
    assert.equal(results.length, 2);
    assert.match(results[0]!, /alpha/);
    assert.match(results[1]!, /beta/);
  });

  test('a native call with malformed arguments is a mistake the model is told about', async () => {
    fixture.provider = new ScriptedProvider({ toolProtocol: 'native' });
    fixture.provider.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: '{"path": "a.t' }] },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] },
    );
    const task = Task.create(fixture.options(), 'Read');
    assert.equal((await task.run()).status, 'completed');
    const error = task.log.events.find((e) => e.type === 'tool_error');
    assert.ok(error?.type === 'tool_error' && error.mistake, JSON.stringify(error));
  });
});
