// Sub-agents on the OpenAI Responses API with native tool calling and reasoning: each conversation
// sends its own encrypted reasoning items back with its own calls, and none crosses to the other
// (the scripted server refuses items it did not give, or gave with another summary).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { Task } from '../../../src/core/task/task.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { conversationRouter } from '../../helpers/conversation-router.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { lastTurnItems } from '../native/wire-views.js';

const reasoningSummaries = (body: any): string[] =>
  body.input.filter((item: any) => item.type === 'reasoning').map((item: any) => item.summary.map((s: any) => s.text).join(''));

describe('sub-agents with encrypted reasoning (Responses API)', { timeout: 120_000 }, () => {
  const fixture = useTaskFixture();

  test("a child's reasoning goes back in the child's conversation, the parent's in the parent's", async () => {
    fixture.ws.write('alpha.txt', 'ALPHA\n');
    const complete = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', arguments: { result } }] });
    const router = conversationRouter({
      'Research the code': [
        { reasoning: 'Parent: delegate.', toolCalls: [{ name: 'use_subagents', arguments: { prompts: '["Question A: what is in alpha.txt?"]' } }] },
        complete('Answered.'),
      ],
      'Question A': [{ reasoning: 'Child: read it.', toolCalls: [{ name: 'read_file', arguments: { path: 'alpha.txt' } }] }, complete('alpha.txt says ALPHA.')],
    });
    fixture.server.enqueue(...router.replies());
    const provider = createProvider({
      provider: 'openai',
      model: 'gpt-5.1-codex',
      apiKey: 'k',
      baseUrl: fixture.server.openAiBaseUrl,
      toolProtocol: 'native',
      reasoning: { effort: 'low' },
    });
    const harness = new ToolHarness(fixture.ws.root);
    const environment = await fixture.environment(provider, harness.host, { maxIterations: 10 });
    const task = Task.create({ ...environment.options, retry: { maxRetries: 0 } }, 'Research the code');
    const outcome = await task.run();
    assert.deepEqual(outcome, { status: 'completed', result: 'Answered.' });

    const requests = fixture.server.requests;
    assert.equal(requests.length, 4);
    assert.ok(requests.every((r) => r.format === 'openai-responses'));
    const childSecond = requests.find((r) => JSON.stringify(r.body.input).includes('Question A') && r.body.input.length > 1)!;
    const parentSecond = requests.find((r) => JSON.stringify(r.body.input).includes('Research the code') && r.body.input.length > 1)!;
    assert.deepEqual(reasoningSummaries(childSecond.body), ['Child: read it.']);
    assert.deepEqual(reasoningSummaries(parentSecond.body), ['Parent: delegate.']);
    assert.deepEqual(
      lastTurnItems(parentSecond.body.input, 'assistant').map((item: any) => item.type),
      ['reasoning', 'function_call'],
    );
  });
});
