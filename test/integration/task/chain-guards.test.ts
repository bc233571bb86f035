// Guards that a new_task hand-over or a sub-agent must not get around, against the scripted server:
// a skill's allowed-tools keep limiting the task a hand-over starts and the sub-agents started while
// the skill is active, and a run of repeated calls goes on counting across a hand-over.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { runTaskChain } from '../../../src/core/task/task-chain.js';
import { Task } from '../../../src/core/task/task.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { conversationRouter } from '../../helpers/conversation-router.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const tool = (name: string, params: Record<string, string>) => ({
  text: `<${name}>\n${Object.entries(params)
    .map(([key, value]) => `<${key}>${value}</${key}>`)
    .join('\n')}\n</${name}>`,
});
const done = (result: string) => tool('attempt_completion', { result });
const SKILL = '---\nname: notes\ndescription: Reads notes only.\nallowed-tools: Read use_subagents\n---\nRead the notes; change nothing.\n';

describe('guards across new_task hand-overs and sub-agents', { timeout: 120_000 }, () => {
  const fixture = useTaskFixture();

  async function options(extra: Record<string, unknown> = {}) {
    fixture.ws.write('.claude/skills/notes/SKILL.md', SKILL);
    const provider = createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey: 'k', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, new ToolHarness(fixture.ws.root).host, {
      maxIterations: 12,
      agentSkills: { workspaceTrusted: () => true, homeDir: join(fixture.storage, 'home') },
      ...extra,
    });
    return { ...environment.options, retry: { maxRetries: 0 } };
  }

  test("a skill's allowed-tools still limit the task a new_task hand-over starts", async () => {
    fixture.server.enqueue(
      tool('use_skill', { skill_name: 'notes' }),
      tool('write_to_file', { path: 'parent.txt', content: 'no' }),
      tool('new_task', { context: 'Continue: write child.txt' }),
      tool('write_to_file', { path: 'child.txt', content: 'no' }),
      done('Could not write.'),
    );
    const first = Task.create(await options(), 'Take notes');
    const chain = await runTaskChain(first, await options(), () => {});
    assert.equal(chain.tasks.length, 2, 'the model handed over');
    assert.deepEqual(chain.outcome, { status: 'completed', result: 'Could not write.' });
    assert.equal(existsSync(join(fixture.ws.root, 'parent.txt')), false);
    assert.equal(existsSync(join(fixture.ws.root, 'child.txt')), false, 'the new task wrote a file the skill does not allow');
    const child = chain.tasks[1]!.log.events;
    const carried = child.find((e) => e.type === 'skill_loaded');
    assert.ok(carried?.type === 'skill_loaded' && carried.name === 'notes' && carried.inheritedFrom === first.id, JSON.stringify(carried));
    const refused = child.find((e) => e.type === 'tool_error' && e.tool === 'write_to_file');
    assert.match(refused?.type === 'tool_error' ? refused.error : '', /notes/);
  });

  test('a sub-agent started while the skill is active stays within its allowed-tools', async () => {
    const router = conversationRouter({
      'Take notes': [
        tool('use_skill', { skill_name: 'notes' }),
        tool('use_subagents', { prompts: JSON.stringify([{ prompt: 'Sub-task W: write w.txt', mode: 'code', paths: ['w.txt'] }]) }),
        done('Delegated.'),
      ],
      'Sub-task W': [tool('write_to_file', { path: 'w.txt', content: 'no' }), done('Could not write w.txt.')],
    });
    fixture.server.enqueue(...router.replies());
    const task = Task.create(await options(), 'Take notes');
    assert.deepEqual(await task.run(), { status: 'completed', result: 'Delegated.' });
    assert.equal(existsSync(join(fixture.ws.root, 'w.txt')), false, 'the sub-agent wrote a file the skill does not allow');
    const result = task.log.events.find((e) => e.type === 'tool_result' && e.tool === 'use_subagents');
    assert.ok(result?.type === 'tool_result', 'the sub-agents ran');
    assert.deepEqual(
      result.details?.subagents?.map((c) => [c.status, c.report]),
      [['completed', 'Could not write w.txt.']],
    );
  });

  test("a task a hand-over starts repeating the parent's failing call is counted on, told and stopped", async () => {
    const failing = tool('read_file', { path: 'missing.txt' });
    fixture.server.enqueue(failing, failing, tool('new_task', { context: 'Continue: read missing.txt' }), failing, failing, failing, done('Never.'));
    const first = Task.create(await options({ maxRepeatedCalls: 3 }), 'Read missing.txt');
    const chain = await runTaskChain(first, await options({ maxRepeatedCalls: 3 }), () => {});
    assert.equal(chain.tasks.length, 2);
    assert.equal(chain.outcome.status, 'failed');
    assert.match(chain.outcome.status === 'failed' ? chain.outcome.error : '', /^Stopped: the model made the same read_file call 4 times in a row/);
    const loops = chain.tasks[1]!.log.events.flatMap((e) => (e.type === 'loop_detected' ? [[e.action, e.count]] : []));
    assert.deepEqual(loops, [
      ['told', 3],
      ['stopped', 4],
    ]);
  });
});
