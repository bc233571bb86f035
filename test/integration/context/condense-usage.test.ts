import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OpenAiProvider } from '../../../src/core/providers/openai-provider.js';
import { createTaskEnvironment } from '../../../src/core/session/task-environment.js';
import { APPROVE_ALL_POLICY } from '../../../src/core/log/approval-policy.js';
import { Task } from '../../../src/core/task/task.js';
import { usageTotals } from '../../../src/core/log/usage-totals.js';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

describe('summary requests are accounted for', () => {
  const fixture = useAgentFixture();

  async function pricedTask(): Promise<Task> {
    const provider = new OpenAiProvider({
      id: 'openai-compatible',
      model: 'scripted-model',
      baseUrl: fixture.server.openAiBaseUrl,
      keySource: 'SMITH_API_KEY',
    });
    const env = await createTaskEnvironment({
      cwd: fixture.ws.root,
      storageDir: fixture.storage,
      host: new ToolHarness(fixture.ws.root).host,
      provider,
      policy: APPROVE_ALL_POLICY,
      maxIterations: 5,
      modelOverrides: { inputPrice: 1, outputPrice: 2 },
    });
    return Task.create(env.options, 'Work');
  }

  test('a summary logs its usage and cost, and the totals include it', async () => {
    const task = await pricedTask();
    fixture.server.enqueue({ text: 'SUMMARY: nothing yet.', usage: { input: 4_000, output: 100 } });
    await task.condense();
    const condensed = task.log.events.find((e) => e.type === 'history_condensed');
    assert.ok(condensed && condensed.type === 'history_condensed');
    assert.deepEqual(condensed.usage, { inputTokens: 4_000, outputTokens: 100 });
    assert.ok(Math.abs(condensed.cost! - 0.0042) < 1e-12);
    const totals = usageTotals(task.log.events);
    assert.equal(totals.inputTokens, 4_000);
    assert.ok(Math.abs(totals.cost! - 0.0042) < 1e-12);
  });

  test('an empty summary is refused, but the tokens it used are logged and counted', async () => {
    const task = await pricedTask();
    fixture.server.enqueue({ text: '', usage: { input: 3_000, output: 0 } });
    await assert.rejects(task.condense(), /empty summary/);
    assert.equal(
      task.log.events.some((e) => e.type === 'history_condensed'),
      false,
    );
    const failed = task.log.events.find((e) => e.type === 'condense_failed');
    assert.ok(failed && failed.type === 'condense_failed');
    assert.match(failed.error, /empty summary/);
    assert.deepEqual(usageTotals(task.log.events), { inputTokens: 3_000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 0.003 });
  });
});

describe('usageTotals', () => {
  const response = (usage: { inputTokens: number; outputTokens: number }, cost?: number) => ({
    type: 'model_response' as const,
    text: '',
    reasoning: '',
    blocks: [],
    usage,
    ...(cost === undefined ? {} : { cost }),
    seq: 0,
    ts: 0,
  });

  test('one request with tokens but no known price makes the total cost unknown', () => {
    const known = usageTotals([response({ inputTokens: 10, outputTokens: 1 }, 0.5)]);
    assert.equal(known.cost, 0.5);
    const mixed = usageTotals([response({ inputTokens: 10, outputTokens: 1 }, 0.5), response({ inputTokens: 10, outputTokens: 1 })]);
    assert.equal(mixed.cost, undefined);
    assert.equal(mixed.inputTokens, 20);
    // A server that reports no usage still charged for the response.
    assert.equal(usageTotals([response({ inputTokens: 0, outputTokens: 0 })]).cost, undefined);
    assert.equal(usageTotals([]).cost, undefined);
  });
});
