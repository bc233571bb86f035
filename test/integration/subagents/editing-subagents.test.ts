// Sub-agents that edit: custom agents and modes with edit tools, against the scripted server. Their
// calls go through the parent's approvals (naming the sub-agent), rules and checkpoints; each may
// edit only the paths it declared, wherever links and `..` lead; overlapping declarations run one
// after another, disjoint ones side by side.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { DEFAULT_POLICY } from '../../../src/core/log/approval-policy.js';
import { listCheckpoints, rewindTask } from '../../../src/core/checkpoints/rewind-task.js';
import { Task, type TaskOptions } from '../../../src/core/task/task.js';
import type { TaskEvent } from '../../../src/core/log/events.js';
import { readTaskEvents } from '../../../src/core/log/task-log.js';
import { subagentStorage } from '../../../src/core/subagents/subagent-runner.js';
import type { TaskEnvironmentInput } from '../../../src/core/session/task-environment.js';
import { allText, useTaskFixture } from '../../helpers/agent-fixture.js';
import { conversationRouter, firstUserText } from '../../helpers/conversation-router.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
const call = (items: unknown[]) => ({ text: `<use_subagents>\n<prompts>${JSON.stringify(items)}</prompts>\n</use_subagents>` });
const read = (path: string) => ({ text: `<read_file>\n<path>${path}</path>\n</read_file>` });
const write = (path: string, content: string) => ({ text: `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });

const FIXER = `---
name: fixer
description: Fixes one small thing in the files it is given.
tools: Read, Grep, Glob, Edit, Write
model: inherit
---
You are FIXER-PERSONA. Make the smallest change that does it.
`;

describe('sub-agents that edit', { timeout: 180_000 }, () => {
  const fixture = useTaskFixture();

  async function options(harness: ToolHarness, extra: Partial<TaskEnvironmentInput> = {}): Promise<TaskOptions> {
    const provider = createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey: 'k', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, harness.host, { maxIterations: 10, ...extra });
    return { ...environment.options, retry: { maxRetries: 0 } };
  }

  function subagentsResult(task: Task) {
    const result = task.log.events.find((e) => e.type === 'tool_result' && e.tool === 'use_subagents');
    assert.ok(result?.type === 'tool_result', 'use_subagents has a result');
    return result;
  }

  function childEvents(options: TaskOptions, parent: Task, childId: string): readonly TaskEvent[] {
    return readTaskEvents(subagentStorage(options.storageDir, parent.id), childId);
  }

  test("a custom agent's edit is asked through the parent's approvals, names the agent, and a rewind of the parent undoes it", async () => {
    fixture.ws.write('.claude/agents/fixer.md', FIXER);
    fixture.ws.write('src/app.ts', 'export const answer = 41;\n');
    const router = conversationRouter({
      'Fix the answer': [call([{ prompt: 'Job A: set the answer to 42 in src/app.ts', agent: 'fixer', paths: ['src/app.ts'] }]), done('Fixed.')],
      'Job A': [read('src/app.ts'), write('src/app.ts', 'export const answer = 42;'), done('src/app.ts now says 42.')],
    });
    fixture.server.enqueue(...router.replies());
    const harness = new ToolHarness(fixture.ws.root);
    harness.answers = [{ approved: true }];
    const taskOptions = await options(harness, { policy: DEFAULT_POLICY });
    const task = Task.create(taskOptions, 'Fix the answer');
    assert.deepEqual(await task.run(), { status: 'completed', result: 'Fixed.' });
    assert.equal(fixture.ws.read('src/app.ts'), 'export const answer = 42;\n');

    // Starting sub-agents is a read (auto-approved by the default policy); the edit was asked, naming who asks.
    assert.equal(harness.asked.length, 1);
    const asked = harness.asked[0]!;
    assert.equal(asked.tool, 'write_to_file');
    assert.equal(asked.subagent?.name, 'fixer');
    assert.equal(asked.subagent?.index, 0);
    const facts = subagentsResult(task).details?.subagents?.[0];
    assert.equal(asked.subagent?.taskId, facts?.taskId);
    assert.deepEqual([facts?.status, facts?.agent, facts?.paths], ['completed', 'fixer', ['src/app.ts']]);
    // The agent's body is its system prompt.
    const childRequest = fixture.server.requests.find((r) => allText(r).includes('Job A'))!;
    assert.match(JSON.stringify(childRequest.body), /FIXER-PERSONA/);

    // The parent took a checkpoint after the call; rewinding to the one before it puts the file back.
    const checkpoints = listCheckpoints(task.log.events);
    assert.ok(checkpoints.length >= 2, `checkpoints: ${JSON.stringify(checkpoints)}`);
    const after = task.log.events.find((e) => e.type === 'checkpoint_created' && e.changed.includes('src/app.ts'));
    assert.ok(after, 'a checkpoint lists the sub-agent’s edit');
    const outcome = await rewindTask(task.log, taskOptions.checkpoints, { checkpointId: '0', scope: 'files' });
    assert.equal(outcome.kind, 'rewound', JSON.stringify(outcome));
    assert.equal(fixture.ws.read('src/app.ts'), 'export const answer = 41;\n');
  });

  test('an edit outside the declared paths is refused wherever it leads: another file, `..`, absolute, a link out, a dangling link', async () => {
    const outside = join(fixture.storage, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'target.txt'), 'untouched\n');
    fixture.ws.write('.claude/agents/fixer.md', FIXER);
    fixture.ws.write('src/auth/login.ts', 'login\n');
    fixture.ws.write('src/other.ts', 'other\n');
    symlinkSync(outside, join(fixture.ws.root, 'src/auth/escape'));
    symlinkSync(join(outside, 'new.txt'), join(fixture.ws.root, 'src/auth/dangling.txt'));
    const router = conversationRouter({
      'Try to escape': [call([{ prompt: 'Job B: change the login', agent: 'fixer', paths: ['src/auth/**'] }]), done('Tried.')],
      // Refusals are mistakes (three in a row end a sub-agent), so reads go between them.
      'Job B': [
        write('src/other.ts', 'hacked'),
        write('src/auth/../other.ts', 'hacked'),
        read('src/auth/login.ts'),
        write(join(outside, 'target.txt'), 'hacked'),
        write('src/auth/escape/target.txt', 'hacked'),
        read('src/auth/login.ts'),
        write('src/auth/dangling.txt', 'replaced the link'),
        write('src/auth/login.ts', 'login v2'),
        done('Only login changed.'),
      ],
    });
    fixture.server.enqueue(...router.replies());
    const harness = new ToolHarness(fixture.ws.root);
    // --yes: the refusals are not the user's; nothing is asked.
    const taskOptions = await options(harness, { maxIterations: 10 });
    const task = Task.create(taskOptions, 'Try to escape');
    assert.equal((await task.run()).status, 'completed');
    assert.equal(fixture.ws.read('src/other.ts'), 'other\n');
    assert.equal(readFileSync(join(outside, 'target.txt'), 'utf8'), 'untouched\n');
    assert.equal(existsSync(join(outside, 'new.txt')), false, 'the dangling link did not create its target');
    assert.equal(fixture.ws.read('src/auth/login.ts'), 'login v2\n');
    const child = subagentsResult(task).details?.subagents?.[0];
    const errors = childEvents(taskOptions, task, child!.taskId).filter((e) => e.type === 'tool_error');
    assert.equal(errors.length, 4, JSON.stringify(errors));
    for (const error of errors) assert.match(error.type === 'tool_error' ? error.error : '', /may only edit the paths declared .*src\/auth\/\*\*/);
  });

  test('disjoint declarations run side by side; overlapping ones and one that runs commands wait for each other', async () => {
    fixture.ws.write('.smith/agents/fixer.md', FIXER);
    fixture.ws.write(
      '.smith/agents/runner.md',
      '---\nname: runner\ndescription: Runs the tests and fixes them.\ntools: [Read, Edit, Bash]\n---\nYou run things.\n',
    );
    const order: string[] = [];
    let bAsked!: () => void;
    const bRunning = new Promise<void>((resolve) => (bAsked = resolve));
    const router = conversationRouter(
      {
        'Split the work': [
          call([
            { prompt: 'Job P: fix a', agent: 'fixer', paths: ['src/a/**'] },
            { prompt: 'Job Q: fix b', agent: 'fixer', paths: ['src/b/**'] },
            { prompt: 'Job R: fix a again', agent: 'fixer', paths: ['src/a/one.ts'] },
            { prompt: 'Job S: run the tests', agent: 'runner', paths: ['test/**'] },
          ]),
          done('All done.'),
        ],
        // P's first answer waits until Q has asked: only side-by-side sub-agents get there.
        'Job P': [{ ...write('src/a/one.ts', 'P'), hold: { afterEvents: 1, until: bRunning } }, done('P done.')],
        'Job Q': [write('src/b/one.ts', 'Q'), done('Q done.')],
        'Job R': [read('src/a/one.ts'), write('src/a/one.ts', 'R'), done('R done.')],
        'Job S': [done('S done.')],
      },
      (key) => {
        order.push(key);
        if (key === 'Job Q') bAsked();
      },
    );
    fixture.server.enqueue(...router.replies());
    const taskOptions = await options(new ToolHarness(fixture.ws.root), { subagents: { maxParallel: 4, maxRequests: 5 } });
    const task = Task.create(taskOptions, 'Split the work');
    assert.equal((await task.run()).status, 'completed');
    assert.deepEqual(
      subagentsResult(task).details?.subagents?.map((c) => c.status),
      ['completed', 'completed', 'completed', 'completed'],
    );
    // R overlaps P: it started only after P's last request; S runs commands: after every other writer.
    const firstOf = (key: string) => order.indexOf(key);
    const lastOf = (key: string) => order.lastIndexOf(key);
    assert.ok(firstOf('Job R') > lastOf('Job P'), order.join(' '));
    assert.ok(firstOf('Job S') > Math.max(lastOf('Job P'), lastOf('Job Q'), lastOf('Job R')), order.join(' '));
    assert.equal(fixture.ws.read('src/a/one.ts'), 'R\n', 'R ran after P');
    assert.equal(fixture.ws.read('src/b/one.ts'), 'Q\n');
  });

  test('two read-only sub-agents beside an editing one all run at once', async () => {
    fixture.ws.write('.claude/agents/fixer.md', FIXER);
    const started = new Set<string>();
    let allAsked!: () => void;
    const all = new Promise<void>((resolve) => (allAsked = resolve));
    const router = conversationRouter(
      {
        'Mixed work': [
          call(['Job X: read', { prompt: 'Job Y: edit', agent: 'fixer', paths: ['y.txt'] }, { prompt: 'Job Z: ask', mode: 'ask' }]),
          done('Mixed.'),
        ],
        'Job X': [{ ...done('X.'), hold: { afterEvents: 1, until: all } }],
        'Job Y': [{ ...write('y.txt', 'Y'), hold: { afterEvents: 1, until: all } }, done('Y.')],
        'Job Z': [{ ...done('Z.'), hold: { afterEvents: 1, until: all } }],
      },
      (key) => {
        started.add(key);
        if (['Job X', 'Job Y', 'Job Z'].every((k) => started.has(k))) allAsked();
      },
    );
    fixture.server.enqueue(...router.replies());
    const task = Task.create(await options(new ToolHarness(fixture.ws.root)), 'Mixed work');
    assert.equal((await task.run()).status, 'completed');
    assert.deepEqual(
      subagentsResult(task).details?.subagents?.map((c) => [c.status, c.mode ?? c.agent ?? 'research']),
      [
        ['completed', 'research'],
        ['completed', 'fixer'],
        ['completed', 'ask'],
      ],
    );
  });

  test('a sub-agent cannot start sub-agents, ask the user, or run a tool its agent does not grant', async () => {
    fixture.ws.write('.claude/agents/reader.md', '---\nname: reader\ndescription: Reads.\ntools: Read, Grep\n---\nYou read.\n');
    const router = conversationRouter({
      'Nest them': [call([{ prompt: 'Job N: nest', agent: 'reader' }]), done('Nested?')],
      'Job N': [
        call(['Job N2: deeper']),
        { text: '<execute_command>\n<command>touch pwned.txt</command>\n<requires_approval>false</requires_approval>\n</execute_command>' },
        write('pwned.txt', 'x'),
      ],
    });
    fixture.server.enqueue(...router.replies());
    const taskOptions = await options(new ToolHarness(fixture.ws.root));
    const task = Task.create(taskOptions, 'Nest them');
    assert.equal((await task.run()).status, 'completed');
    assert.equal(existsSync(join(fixture.ws.root, 'pwned.txt')), false);
    // Three such calls in a row are three mistakes: the sub-agent is stopped and reported failed.
    const child = subagentsResult(task).details?.subagents?.[0];
    assert.equal(child?.status, 'failed');
    const errors = childEvents(taskOptions, task, child!.taskId).flatMap((e) => (e.type === 'tool_error' ? [`${e.tool}: ${e.error}`] : []));
    assert.equal(errors.length, 3, errors.join('\n'));
    for (const error of errors) assert.match(error, /is not a tool\. Use one of: read_file, search_files, attempt_completion/);
    assert.equal(fixture.server.requests.filter((r) => firstUserText(r).includes('Job N2')).length, 0, 'no grandchild asked the model');
  });

  test("an unknown agent, a mode that is not there, or an editing sub-agent without paths is the model's mistake and starts nothing", async () => {
    fixture.ws.write('.claude/agents/fixer.md', FIXER);
    const router = conversationRouter({
      'Bad calls': [
        call([{ prompt: 'Job U: x', agent: 'nobody' }]),
        call([{ prompt: 'Job U: x', mode: 'nomode' }]),
        call(['Job U: fine', { prompt: 'Job U: edit', agent: 'fixer' }]),
        call([{ prompt: 'Job U: up', agent: 'fixer', paths: ['../elsewhere/**'] }]),
        done('Gave up.'),
      ],
    });
    fixture.server.enqueue(...router.replies());
    // Four mistakes in a row: more than a task is allowed by default.
    const task = Task.create({ ...(await options(new ToolHarness(fixture.ws.root))), maxConsecutiveMistakes: 10 }, 'Bad calls');
    assert.equal((await task.run()).status, 'completed');
    const errors = task.log.events.flatMap((e) => (e.type === 'tool_error' ? [e.error] : []));
    assert.equal(errors.length, 4);
    assert.match(errors[0]!, /no agent "nobody"; the agents are fixer/);
    assert.match(errors[1]!, /no mode "nomode"/);
    assert.match(errors[2]!, /item 2: .*must declare the "paths"/);
    assert.match(errors[3]!, /cannot go up with "\.\."/);
    assert.equal(task.log.events.filter((e) => e.type === 'subagent_started').length, 0);
    assert.equal(fixture.server.requests.filter((r) => firstUserText(r).includes('Job U')).length, 0);
  });

  test("the parent's deny rules and PreToolUse hooks hold for a sub-agent's edits inside its declared paths", async () => {
    fixture.ws.write('.claude/agents/fixer.md', FIXER);
    const hookLog = join(fixture.storage, 'hook.log');
    const router = conversationRouter({
      'Edit guarded': [call([{ prompt: 'Job D: edit', agent: 'fixer', paths: ['src/**'] }]), done('Guarded.')],
      'Job D': [write('src/secret.ts', 'x'), write('src/blocked.ts', 'x'), write('src/ok.ts', 'ok'), done('One edit.')],
    });
    fixture.server.enqueue(...router.replies());
    const hookScript = join(fixture.storage, 'hook.js');
    writeFileSync(
      hookScript,
      `let s = '';\nprocess.stdin.on('data', (d) => (s += d)).on('end', () => {\n  require('fs').appendFileSync(${JSON.stringify(hookLog)}, s + '\\n');\n  if (s.includes('blocked.ts')) {\n    console.error('no blocked files');\n    process.exit(2);\n  }\n});\n`,
    );
    const hook = `node ${hookScript}`;
    const taskOptions = await options(new ToolHarness(fixture.ws.root), {
      permissions: [{ effect: 'deny', rule: 'Edit(src/secret.ts)', source: 'test' }],
      hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ command: hook, timeoutSeconds: 60, source: 'test' }] }] },
    });
    const task = Task.create(taskOptions, 'Edit guarded');
    assert.equal((await task.run()).status, 'completed');
    assert.equal(existsSync(join(fixture.ws.root, 'src/secret.ts')), false);
    assert.equal(existsSync(join(fixture.ws.root, 'src/blocked.ts')), false);
    assert.equal(fixture.ws.read('src/ok.ts'), 'ok\n');
    const child = subagentsResult(task).details?.subagents?.[0];
    const errors = childEvents(taskOptions, task, child!.taskId).flatMap((e) => (e.type === 'tool_error' ? [e.error] : []));
    assert.match(errors[0] ?? '', /Edit\(src\/secret\.ts\).*denies this call/);
    assert.match(errors[1] ?? '', /PreToolUse hook .*blocked this call.*no blocked files/);
    assert.match(readFileSync(hookLog, 'utf8'), /src\/ok\.ts/);
  });

  test("an agent's model: an id runs on the main provider with that model; sonnet on another vendor keeps the task's model and says so", async () => {
    fixture.ws.write('.claude/agents/small.md', '---\nname: small\ndescription: Cheap.\ntools: Read\nmodel: tiny-model\n---\nYou are small.\n');
    fixture.ws.write('.claude/agents/poet.md', '---\nname: poet\ndescription: Writes.\ntools: Read\nmodel: sonnet\n---\nYou write.\n');
    const router = conversationRouter({
      'Pick models': [
        call([
          { prompt: 'Job M1: hi', agent: 'small' },
          { prompt: 'Job M2: hi', agent: 'poet' },
        ]),
        done('Picked.'),
      ],
      'Job M1': [done('small.')],
      'Job M2': [done('poet.')],
    });
    fixture.server.enqueue(...router.replies());
    const withModel = (model: string) => createProvider({ provider: 'openai-compatible', model, apiKey: 'k', baseUrl: fixture.server.openAiBaseUrl });
    const progress: string[] = [];
    const task = Task.create(await options(new ToolHarness(fixture.ws.root), { withModel }), 'Pick models');
    task.onUpdate((update) => update.type === 'progress' && progress.push(update.text));
    assert.equal((await task.run()).status, 'completed');
    const modelOf = (key: string) => fixture.server.requests.filter((r) => firstUserText(r).includes(key)).map((r) => (r.body as { model?: string }).model);
    assert.deepEqual(modelOf('Job M1'), ['tiny-model']);
    assert.deepEqual(modelOf('Job M2'), ['scripted-model']);
    assert.ok(
      progress.some((line) => /\[2\] model "sonnet" names a Claude model; openai-compatible runs it with the task's model scripted-model/.test(line)),
      progress.join(''),
    );
  });

  test('a mode with edits (code) declares its paths; architect stays bound to Markdown within them', async () => {
    const router = conversationRouter({
      'Use modes': [
        call([
          { prompt: 'Job C: code', mode: 'code', paths: ['src/**'] },
          { prompt: 'Job A2: plan', mode: 'architect', paths: ['docs/**'] },
        ]),
        done('Moded.'),
      ],
      'Job C': [write('src/c.ts', 'c'), done('c.')],
      'Job A2': [write('docs/plan.ts', 'no'), write('docs/plan.md', '# Plan'), done('planned.')],
    });
    fixture.server.enqueue(...router.replies());
    const taskOptions = await options(new ToolHarness(fixture.ws.root));
    const task = Task.create(taskOptions, 'Use modes');
    assert.equal((await task.run()).status, 'completed');
    assert.equal(fixture.ws.read('src/c.ts'), 'c\n');
    assert.equal(fixture.ws.read('docs/plan.md'), '# Plan\n');
    assert.equal(existsSync(join(fixture.ws.root, 'docs/plan.ts')), false);
  });
  test("an edit of a file the user changed after the sub-agent read it is merged with their change, as the parent's would be", async () => {
    fixture.ws.write('.claude/agents/fixer.md', FIXER);
    const between = '// one\n// two\n// three\n';
    fixture.ws.write('src/app.ts', `export const answer = 41;\n${between}export const other = 1;\n`);
    let jobRequests = 0;
    const router = conversationRouter(
      {
        'Fix the answer': [call([{ prompt: 'Job A: set the answer to 42 in src/app.ts', agent: 'fixer', paths: ['src/app.ts'] }]), done('Fixed.')],
        'Job A': [
          read('src/app.ts'),
          {
            text: '<replace_in_file>\n<path>src/app.ts</path>\n<diff>\n------- SEARCH\nexport const answer = 41;\n=======\nexport const answer = 42;\n+++++++ REPLACE\n</diff>\n</replace_in_file>',
          },
          done('src/app.ts now says 42.'),
        ],
      },
      (key) => {
        // The user edits the file after the sub-agent read it, before its edit arrives.
        if (key === 'Job A' && ++jobRequests === 2)
          fixture.ws.write('src/app.ts', `export const answer = 41;\n${between}export const other = 2; // the user\n`);
      },
    );
    fixture.server.enqueue(...router.replies());
    const harness = new ToolHarness(fixture.ws.root);
    const taskOptions = await options(harness);
    const task = Task.create(taskOptions, 'Fix the answer');
    assert.deepEqual(await task.run(), { status: 'completed', result: 'Fixed.' });
    assert.equal(fixture.ws.read('src/app.ts'), `export const answer = 42;\n${between}export const other = 2; // the user\n`);
    const childId = subagentsResult(task).details?.subagents?.[0]?.taskId;
    assert.ok(childId);
    const edit = childEvents(taskOptions, task, childId).find((e) => e.type === 'tool_result' && e.tool === 'replace_in_file');
    assert.ok(edit?.type === 'tool_result');
    assert.match(
      edit.output,
      /changed on disk since you last read[\s\S]*your edit was merged into them[\s\S]*\+export const other = 2; \/\/ the user/,
      'the sub-agent is told what the user changed',
    );
  });
});
