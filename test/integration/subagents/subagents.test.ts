// use_subagents against the scripted server answering a task and its sub-agents at once: the
// children run in parallel with their own logs and context windows, only their reports reach the
// parent, and their cost counts in the parent's.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { DEFAULT_POLICY } from '../../../src/core/log/approval-policy.js';
import { subagentStorage } from '../../../src/core/subagents/subagent-runner.js';
import { listStoredTasks, taskDir } from '../../../src/core/log/task-log.js';
import { Task, type TaskOptions } from '../../../src/core/task/task.js';
import { usageTotals } from '../../../src/core/log/usage-totals.js';
import { uiProjection } from '../../../src/core/task/ui-projection.js';
import { allText } from '../../helpers/agent-fixture.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { conversationRouter } from '../../helpers/conversation-router.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { eventually } from '../../helpers/pid-liveness.js';

const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`, usage: { input: 1_000, output: 50 } });

describe('sub-agents', { timeout: 120_000 }, () => {
  const fixture = useTaskFixture();

  async function options(harness = new ToolHarness(fixture.ws.root), extra: Parameters<typeof fixture.environment>[2] = {}): Promise<TaskOptions> {
    const provider = createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey: 'k', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, harness.host, {
      maxIterations: 10,
      modelOverrides: { contextWindow: 100_000, inputPrice: 1, outputPrice: 1 },
      ...extra,
    });
    return { ...environment.options, retry: { maxRetries: 0 } };
  }

  test('children run side by side; the parent gets their reports, not what they read, and pays for them', async () => {
    fixture.ws.write('alpha.txt', 'ALPHA-FILE-CONTENT lives here\n');
    let secondChildAsked!: () => void;
    const bothRunning = new Promise<void>((resolve) => (secondChildAsked = resolve));
    const router = conversationRouter(
      {
        'Research the code': [
          {
            text: '<use_subagents>\n<prompts>["Question A: what is in alpha.txt?", "Question B: is there a beta file?"]</prompts>\n</use_subagents>',
            usage: { input: 2_000, output: 80 },
          },
          done('Both answered.'),
        ],
        // A's first answer waits until B has asked: only children running in parallel get there.
        'Question A': [
          { text: '<read_file>\n<path>alpha.txt</path>\n</read_file>', usage: { input: 1_000, output: 20 }, hold: { afterEvents: 1, until: bothRunning } },
          done('alpha.txt says ALPHA lives there.'),
        ],
        'Question B': [done('There is no beta file.')],
      },
      (key) => key === 'Question B' && secondChildAsked(),
    );
    fixture.server.enqueue(...router.replies());
    const taskOptions = await options();
    const progress: string[] = [];
    const task = Task.create(taskOptions, 'Research the code');
    task.onUpdate((update) => update.type === 'progress' && progress.push(update.text));
    const outcome = await task.run();
    assert.deepEqual(outcome, { status: 'completed', result: 'Both answered.' });

    const result = task.log.events.find((e) => e.type === 'tool_result' && e.tool === 'use_subagents');
    assert.ok(result?.type === 'tool_result');
    const children = result.details?.subagents ?? [];
    assert.deepEqual(
      children.map((c) => [c.status, c.report, c.requests, c.inputTokens, c.outputTokens]),
      [
        ['completed', 'alpha.txt says ALPHA lives there.', 2, 2_000, 70],
        ['completed', 'There is no beta file.', 1, 1_000, 50],
      ],
    );
    // Only the reports entered the parent's context; the file stayed in the child's.
    const parentNext = fixture.server.requests.find((r) => allText(r).includes('Sub-agent 1'))!;
    assert.match(allText(parentNext), /Sub-agent 1 \(Question A: what is in alpha\.txt\?\) reported:\nalpha\.txt says ALPHA lives there\./);
    assert.doesNotMatch(allText(parentNext), /ALPHA-FILE-CONTENT/);
    // The children's own logs are kept with the parent's, out of the history.
    for (const child of children) assert.ok(existsSync(join(taskDir(subagentStorage(taskOptions.storageDir, task.id), child.taskId), 'events.jsonl')));
    assert.deepEqual(
      listStoredTasks(taskOptions.storageDir).map((t) => t.taskId),
      [task.id],
    );
    // $1 per million tokens: the parent's 2 requests and the children's 3.
    const totals = usageTotals(task.log.events);
    assert.equal(totals.inputTokens, 2_000 + 1_000 + 3_000);
    assert.ok(Math.abs((totals.cost ?? 0) - (6_000 + 80 + 50 + 120) / 1_000_000) < 1e-12, String(totals.cost));
    assert.ok(
      progress.some((line) => /^\[1\] read_file alpha\.txt/.test(line)),
      progress.join(''),
    );
    assert.ok(
      progress.some((line) => /^\[2\] reported/.test(line)),
      progress.join(''),
    );
  });

  test("a malformed call is the model's mistake; a child that fails is reported as failed and the others go on", async () => {
    const router = conversationRouter({
      'Look around': [
        { text: '<use_subagents>\n<prompts>Question C, Question D</prompts>\n</use_subagents>' },
        { text: '<use_subagents>\n<prompts>["Question C: list files", "Question D: say hi"]</prompts>\n</use_subagents>' },
        done('Done.'),
      ],
      'Question C': [{ fault: 'status', status: 400, body: { error: { message: 'bad request for C' } } }],
      'Question D': [done('hi')],
    });
    fixture.server.enqueue(...router.replies());
    const task = Task.create(await options(), 'Look around');
    assert.equal((await task.run()).status, 'completed');
    const results = task.log.events.filter((e) => e.type === 'tool_result' || e.type === 'tool_error');
    assert.ok(results[0]?.type === 'tool_error' && /prompts must be a JSON array of questions/.test(results[0].error));
    assert.ok(results[1]?.type === 'tool_result');
    assert.deepEqual(
      results[1].details?.subagents?.map((c) => c.status),
      ['failed', 'completed'],
    );
    assert.match(results[1].output, /Sub-agent 1 \(Question C: list files\) failed: .*400/);
  });

  test('one sub-agent can be stopped while the others go on; the chat lists them as they start', async () => {
    const router = conversationRouter({
      'Two questions': [
        { text: '<use_subagents>\n<prompts>["Question E: wait forever", "Question F: answer"]</prompts>\n</use_subagents>' },
        done('One answered.'),
      ],
      'Question E': [{ fault: 'hang' }],
      'Question F': [done('F is answered.')],
    });
    fixture.server.enqueue(...router.replies());
    const task = Task.create(await options(), 'Two questions');
    const started = new Promise<string>((resolve) =>
      task.onUpdate((update) => {
        if (update.type === 'event' && update.event.type === 'subagent_started' && update.event.index === 0) resolve(update.event.taskId);
      }),
    );
    const run = task.run();
    const hanging = await started;
    // Wait until the hanging child has asked the model, so the stop lands mid-request.
    assert.ok(
      await eventually(() => fixture.server.requests.some((r) => JSON.stringify(r.body.messages).includes('Question E'))),
      'the child never asked the model',
    );
    assert.equal(task.stopSubagent(hanging), true);
    assert.equal(task.stopSubagent('no-such-task'), false);
    assert.deepEqual(await run, { status: 'completed', result: 'One answered.' });
    const result = task.log.events.find((e) => e.type === 'tool_result' && e.tool === 'use_subagents');
    assert.ok(result?.type === 'tool_result');
    assert.deepEqual(
      result.details?.subagents?.map((c) => c.status),
      ['cancelled', 'completed'],
    );
    assert.match(result.output, /Sub-agent 1 \(Question E: wait forever\) was stopped/);
    const card = uiProjection(task.log.events).find((m) => m.kind === 'tool' && m.tool === 'use_subagents');
    assert.deepEqual(card?.kind === 'tool' ? card.subagents?.map((c) => [c.index, c.prompt]) : undefined, [
      [0, 'Question E: wait forever'],
      [1, 'Question F: answer'],
    ]);
  });

  test("a sub-agent's call that needs approval is asked through the parent's host; deny rules hold for it too", async () => {
    const outside = join(fixture.storage, 'outside.txt');
    writeFileSync(outside, 'outside the workspace\n');
    fixture.ws.write('.env', 'SECRET=1\n');
    const router = conversationRouter({
      'Check things': [{ text: '<use_subagents>\n<prompts>["Question G: read the outside file and the .env"]</prompts>\n</use_subagents>' }, done('Checked.')],
      'Question G': [
        { text: `<read_file>\n<path>${outside}</path>\n</read_file>` },
        { text: '<read_file>\n<path>.env</path>\n</read_file>' },
        done('Neither could be read.'),
      ],
    });
    fixture.server.enqueue(...router.replies());
    const harness = new ToolHarness(fixture.ws.root);
    harness.answers = [{ approved: false, feedback: 'not outside the project' }];
    const task = Task.create(
      await options(harness, { policy: DEFAULT_POLICY, permissions: [{ effect: 'deny', rule: 'Read(./.env)', source: 'test' }] }),
      'Check things',
    );
    assert.equal((await task.run()).status, 'completed');
    assert.equal(harness.asked.length, 1, 'only the outside read was asked');
    assert.match(harness.asked[0]!.summary, /outside\.txt/);
    const child = task.log.events.find((e) => e.type === 'tool_result' && e.tool === 'use_subagents');
    assert.ok(child?.type === 'tool_result');
    assert.equal(child.details?.subagents?.[0]?.report, 'Neither could be read.');
    const childRequests = fixture.server.requests.filter((r) => JSON.stringify(r.body.messages).includes('Question G'));
    assert.match(JSON.stringify(childRequests[1]!.body.messages), /not outside the project/);
    assert.match(JSON.stringify(childRequests[2]!.body.messages), /Read\(\.\/\.env\).*denies this call/);
  });

  test('a sub-agent may spend what the parent has left under its cost limit; past it, it stops and is reported failed', async () => {
    const router = conversationRouter({
      'Costly research': [
        { text: '<use_subagents>\n<prompts>["Question H: read everything"]</prompts>\n</use_subagents>', usage: { input: 1_000, output: 0 } },
      ],
      'Question H': [{ text: '<list_files>\n<path>.</path>\n</list_files>', usage: { input: 20_000, output: 0 } }],
    });
    fixture.server.enqueue(...router.replies());
    // $1 per million tokens: the parent's request costs $0.001, the child's first $0.02, over the $0.01 limit.
    const task = Task.create(await options(undefined, { maxCost: 0.01 }), 'Costly research');
    const outcome = await task.run();
    assert.equal(outcome.status, 'failed');
    const result = task.log.events.find((e) => e.type === 'tool_result' && e.tool === 'use_subagents');
    assert.ok(result?.type === 'tool_result');
    const child = result.details?.subagents?.[0];
    assert.deepEqual([child?.status, child?.requests], ['failed', 1]);
    assert.match(child?.error ?? '', /over the cost limit of \$0\.01/);
    assert.match(outcome.status === 'failed' ? outcome.error : '', /over the cost limit of \$0\.01/);
  });

  test('in Plan mode the sub-agents ask the Plan model, as the parent does', async () => {
    const router = conversationRouter({
      'Plan the research': [
        { text: '<use_subagents>\n<prompts>["Question P: what is here?"]</prompts>\n</use_subagents>' },
        { text: '<plan_mode_respond>\n<response>The plan is ready.</response>\n</plan_mode_respond>' },
      ],
      'Question P': [done('Nothing much.')],
    });
    fixture.server.enqueue(...router.replies());
    const planner = createProvider({ provider: 'openai-compatible', model: 'plan-model', apiKey: 'k', baseUrl: fixture.server.openAiBaseUrl });
    const taskOptions = await options(new ToolHarness(fixture.ws.root), { providerForMode: { plan: planner } });
    const outcome = await Task.create(taskOptions, 'Plan the research', { mode: 'plan' }).run();
    assert.deepEqual(outcome, { status: 'completed', result: 'The plan is ready.' });
    const models = (key: string) => fixture.server.requests.filter((r) => allText(r).includes(key)).map((r) => (r.body as { model?: string }).model);
    // The child's own request carries the sub-agent prompt; the parent's two requests do not.
    assert.deepEqual(models('You are a sub-agent'), ['plan-model']);
    assert.deepEqual(models('Plan the research'), ['plan-model', 'plan-model']);
  });
});
