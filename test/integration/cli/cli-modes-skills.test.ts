import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { runCli } from '../../helpers/cli-runner.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

const reply = (text: string) => ({ text });
const complete = (result: string) => reply(`<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`);
const write = (path: string, content: string) => reply(`<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>`);

function lastUser(request: { body: { messages: Array<{ role: string; content: string }> } }): string {
  return request.body.messages.filter((m) => m.role === 'user').at(-1)!.content;
}
function systemPrompt(request: { body: { messages: Array<{ role: string; content: string }> } }): string {
  return request.body.messages.find((m) => m.role === 'system')!.content;
}

describe('modes, skills, rules and ignore rules through the CLI', () => {
  let server: ScriptedLlmServer;
  let ws: TempWorkspace;
  let storage: string;
  before(async () => (server = await startScriptedLlmServer()));
  after(() => server.close());
  beforeEach(() => {
    ws = createTempWorkspace();
    storage = mkdtempSync(join(tmpdir(), 'smith-storage-'));
    server.requests.length = 0;
  });
  afterEach(() => {
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });
  const args = () => ['--provider', 'openai-compatible', '--base-url', server.openAiBaseUrl, '--model', 'scripted-model', '--cwd', ws.root, '--storage', storage, '--yes'];

  test('Plan mode refuses an edit and answers with plan_mode_respond', async () => {
    server.enqueue(write('plan.txt', 'x'), (request) => {
      assert.match(lastUser(request), /The tool write_to_file is not available in the current mode/);
      assert.doesNotMatch(systemPrompt(request), /## write_to_file/);
      assert.match(systemPrompt(request), /## plan_mode_respond/);
      assert.match(systemPrompt(request), /# Mode: PLAN/);
      return reply('<plan_mode_respond>\n<response>Step 1: add plan.txt.</response>\n</plan_mode_respond>');
    });
    const run = await runCli({ args: [...args(), '--mode', 'plan', '--output', 'json', 'Plan the work'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).result, 'Step 1: add plan.txt.');
    assert.equal(await import('node:fs').then((fs) => fs.existsSync(join(ws.root, 'plan.txt'))), false);
  });

  test('the architect skill may edit Markdown only, enforced on the call', async () => {
    server.enqueue(write('src/app.ts', 'export {}'), (request) => {
      assert.match(lastUser(request), /The Architect skill may only edit files matching .*"src\/app.ts" does not match/);
      return write('docs/plan.md', '# Plan');
    }, complete('Wrote the plan.'));
    const run = await runCli({ args: [...args(), '--skill', 'architect', 'Design it'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(ws.read('docs/plan.md'), '# Plan\n');
    assert.match(systemPrompt(server.requests[0]!), /excellent planner/);
  });

  test('a workspace skill from .smith/skills/*.yaml is used; a broken one is reported', async () => {
    ws.write('.smith/skills/reviewer.yaml', 'slug: reviewer\nname: Reviewer\nroleDefinition: You are a meticulous code reviewer.\ngroups: [read]\n');
    ws.write('.smith/skills/broken.yaml', 'slug: Bad Slug\nname: x\n');
    server.enqueue((request) => {
      assert.match(systemPrompt(request), /You are a meticulous code reviewer\./);
      assert.doesNotMatch(systemPrompt(request), /## execute_command/);
      return complete('Reviewed.');
    });
    const run = await runCli({ args: [...args(), '--skill', 'reviewer', 'Review'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Skill file .*broken\.yaml is invalid at slug/);
    const unknown = await runCli({ args: [...args(), '--skill', 'nope', 'x'] });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown skill "nope"; available: code, architect, ask, reviewer/);
  });

  test('rules from .smithrules/, AGENTS.md and the global folder reach the system prompt; new_rule adds one', async () => {
    ws.write('.smithrules/style.md', 'Always use tabs.');
    ws.write('AGENTS.md', 'Run npm test before finishing.');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(storage, 'rules'), { recursive: true });
    writeFileSync(join(storage, 'rules', 'me.md'), 'Answer in British English.');
    server.enqueue(
      reply('<new_rule>\n<path>testing.md</path>\n<content>\nPrefer node:test.\n</content>\n</new_rule>'),
      (request) => {
        const prompt = systemPrompt(request);
        for (const rule of ['Always use tabs.', 'Run npm test before finishing.', 'Answer in British English.', 'Prefer node:test.']) {
          assert.ok(prompt.includes(rule), `missing rule: ${rule}`);
        }
        return complete('Rule added.');
      },
    );
    const run = await runCli({ args: [...args(), 'Remember to prefer node:test'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(ws.read('.smithrules/testing.md'), 'Prefer node:test.\n');
  });

  test('.smithignore blocks reads and edits, and the model is told why', async () => {
    ws.write('.smithignore', 'secrets/\n');
    ws.write('secrets/key.txt', 'hunter2\n');
    server.enqueue(reply('<read_file>\n<path>secrets/key.txt</path>\n</read_file>'), (request) => {
      assert.match(lastUser(request), /Access to secrets\/key.txt is blocked by the \.smithignore file/);
      assert.doesNotMatch(lastUser(request), /hunter2/);
      return complete('Could not read it.');
    });
    const run = await runCli({ args: [...args(), 'Read the key'] });
    assert.equal(run.code, 0, run.stderr);
  });

  test('--yes still asks before writing outside the workspace', async () => {
    const outside = createTempWorkspace('smith-outside-');
    try {
      server.enqueue(write(join(outside.root, 'evil.txt'), 'x'), (request) => {
        assert.match(lastUser(request), /The user denied this operation/);
        return complete('Stayed inside.');
      });
      const run = await runCli({ args: [...args(), 'Write outside'], answers: ['n'] });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /The path is outside the workspace/);
      assert.equal(await import('node:fs').then((fs) => fs.existsSync(join(outside.root, 'evil.txt'))), false);
    } finally {
      outside.dispose();
    }
  });

  test('condense replaces older history with the summary in later requests', async () => {
    ws.write('a.txt', 'alpha\n');
    server.enqueue(
      reply('<read_file>\n<path>a.txt</path>\n</read_file>'),
      reply('<condense>\n<context>1. Current work: read a.txt, it says alpha.</context>\n</condense>'),
      (request) => {
        const messages = request.body.messages as Array<{ role: string; content: string }>;
        const text = messages.map((m) => m.content).join('\n');
        assert.match(text, /<task>\nSummarise\n<\/task>/);
        assert.match(text, /it says alpha/);
        assert.doesNotMatch(text, /1 \| alpha/);
        return complete('alpha');
      },
    );
    const run = await runCli({ args: [...args(), 'Summarise'] });
    assert.equal(run.code, 0, run.stderr);
  });

  test('new_task continues in a fresh task that starts from the carried context', async () => {
    server.enqueue(reply('<new_task>\n<context>Goal: finish the README.</context>\n</new_task>'), (request) => {
      const messages = request.body.messages as Array<{ role: string; content: string }>;
      assert.equal(messages.filter((m) => m.role === 'user').length, 1);
      assert.match(messages[1]!.content, /<task>\nGoal: finish the README.\n<\/task>/);
      return complete('Done in the new task.');
    });
    const run = await runCli({ args: [...args(), '--output', 'json', 'Start'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).result, 'Done in the new task.');
  });
});
