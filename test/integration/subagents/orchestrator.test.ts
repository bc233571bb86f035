// The orchestrator mode against the scripted server: it cannot edit or run commands itself, hands
// sub-tasks to modes with use_subagents (an editing one with its paths), and reports what each did.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { Task } from '../../../src/core/task/task.js';
import { usageTotals } from '../../../src/core/log/usage-totals.js';
import { systemPromptOf, useTaskFixture } from '../../helpers/agent-fixture.js';
import { conversationRouter, firstUserText } from '../../helpers/conversation-router.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`, usage: { input: 100, output: 10 } });

describe('the orchestrator mode', { timeout: 120_000 }, () => {
  const fixture = useTaskFixture();

  test('breaks the task into sub-tasks for modes, never edits itself, and reports their results', async () => {
    const router = conversationRouter({
      'Orchestrate the release': [
        { text: '<write_to_file>\n<path>CHANGELOG.md</path>\n<content>\nmine\n</content>\n</write_to_file>', usage: { input: 100, output: 10 } },
        {
          text: `<use_subagents>\n<prompts>${JSON.stringify([
            { prompt: 'Sub-task K: add the version constant to src/version.ts', mode: 'code', paths: ['src/version.ts'] },
            { prompt: 'Sub-task Q: which files mention the version?', mode: 'ask' },
          ])}</prompts>\n</use_subagents>`,
          usage: { input: 100, output: 10 },
        },
        done('K added the constant; Q found two files.'),
      ],
      'Sub-task K': [
        {
          text: '<write_to_file>\n<path>src/version.ts</path>\n<content>\nexport const VERSION = "1.0.0";\n</content>\n</write_to_file>',
          usage: { input: 100, output: 10 },
        },
        done('src/version.ts exports VERSION.'),
      ],
      'Sub-task Q': [
        { text: '<write_to_file>\n<path>q.txt</path>\n<content>\nno\n</content>\n</write_to_file>', usage: { input: 100, output: 10 } },
        done('package.json and src/version.ts.'),
      ],
    });
    fixture.server.enqueue(...router.replies());
    const provider = createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey: 'k', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, new ToolHarness(fixture.ws.root).host, {
      maxIterations: 10,
      modelOverrides: { contextWindow: 100_000, inputPrice: 1, outputPrice: 1 },
    });
    assert.ok(
      environment.modes.modes.some((s) => s.slug === 'orchestrator'),
      'a built-in mode',
    );
    const task = Task.create({ ...environment.options, retry: { maxRetries: 0 } }, 'Orchestrate the release', { modeSlug: 'orchestrator' });
    assert.deepEqual(await task.run(), { status: 'completed', result: 'K added the constant; Q found two files.' });

    // Its own edit was refused: the orchestrator delegates every change.
    const refused = task.log.events.find((e) => e.type === 'tool_error' && e.tool === 'write_to_file');
    assert.match(refused?.type === 'tool_error' ? refused.error : '', /not available in the current mode/);
    assert.equal(existsSync(join(fixture.ws.root, 'CHANGELOG.md')), false);
    const first = fixture.server.requests.find((r) => firstUserText(r).includes('Orchestrate the release'))!;
    assert.match(systemPromptOf(first), /strategic workflow orchestrator/);
    // Each mode the orchestrator can hand work to is listed with when to use it.
    assert.match(systemPromptOf(first), /Modes \("mode"\):\n- code: .+\n- architect: .+\n- ask: .+\n- orchestrator: .+/);

    // The code sub-task edited its declared file; the ask sub-task could not edit at all.
    assert.equal(fixture.ws.read('src/version.ts'), 'export const VERSION = "1.0.0";\n');
    assert.equal(existsSync(join(fixture.ws.root, 'q.txt')), false);
    const result = task.log.events.find((e) => e.type === 'tool_result' && e.tool === 'use_subagents');
    assert.ok(result?.type === 'tool_result');
    assert.deepEqual(
      result.details?.subagents?.map((c) => [c.mode, c.status, c.report, c.requests]),
      [
        ['code', 'completed', 'src/version.ts exports VERSION.', 2],
        ['ask', 'completed', 'package.json and src/version.ts.', 2],
      ],
    );
    // Each sub-task's cost is its own and counts in the task's.
    for (const child of result.details?.subagents ?? []) assert.ok((child.cost ?? 0) > 0, JSON.stringify(child));
    assert.equal(usageTotals(task.log.events).inputTokens, 300 + 400);
  });
});
