import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../../helpers/cli-runner.js';
import { createTempWorkspace } from '../../helpers/temp-workspace.js';
import { lastUserText, systemPromptOf, useAgentFixture } from '../../helpers/agent-fixture.js';

const reply = (text: string) => ({ text });
const complete = (result: string) => reply(`<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`);
const write = (path: string, content: string) => reply(`<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>`);

describe('Plan/Act, modes, rules and ignore rules through the CLI', () => {
  const fx = useAgentFixture();
  const args = () => [...fx.cliArgs(), '--yes'];

  test('Plan mode refuses an edit and answers with plan_mode_respond', async () => {
    fx.server.enqueue(write('plan.txt', 'x'), (request) => {
      assert.match(lastUserText(request), /The tool write_to_file is not available in the current mode/);
      assert.doesNotMatch(systemPromptOf(request), /## write_to_file/);
      assert.match(systemPromptOf(request), /## plan_mode_respond/);
      assert.match(systemPromptOf(request), /# Mode: PLAN/);
      return reply('<plan_mode_respond>\n<response>Step 1: add plan.txt.</response>\n</plan_mode_respond>');
    });
    const run = await runCli({ args: [...args(), '--plan', '--output', 'json', 'Plan the work'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).result, 'Step 1: add plan.txt.');
    assert.equal(await import('node:fs').then((fs) => fs.existsSync(join(fx.ws.root, 'plan.txt'))), false);
  });

  test('the architect mode may edit Markdown only, enforced on the call', async () => {
    fx.server.enqueue(
      write('src/app.ts', 'export {}'),
      (request) => {
        assert.match(lastUserText(request), /The Architect mode may only edit files matching .*"src\/app.ts" does not match/);
        return write('docs/plan.md', '# Plan');
      },
      complete('Wrote the plan.'),
    );
    const run = await runCli({ args: [...args(), '--mode', 'architect', 'Design it'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.ws.read('docs/plan.md'), '# Plan\n');
    assert.match(systemPromptOf(fx.server.requestAt(0)), /excellent planner/);
    assert.doesNotMatch(run.stderr, /deprecated/);
  });

  test('a workspace mode from .smith/modes/*.yaml is used once the workspace is trusted; a broken one is reported', async () => {
    fx.ws.write('.smith/modes/reviewer.yaml', 'slug: reviewer\nname: Reviewer\nroleDefinition: You are a meticulous code reviewer.\ngroups: [read]\n');
    fx.ws.write('.smith/modes/broken.yaml', 'slug: Bad Slug\nname: x\n');
    fx.server.enqueue((request) => {
      assert.match(systemPromptOf(request), /You are a meticulous code reviewer\./);
      assert.doesNotMatch(systemPromptOf(request), /## execute_command/);
      return complete('Reviewed.');
    });
    const run = await runCli({ args: [...args(), '--trust-workspace', '--mode', 'reviewer', 'Review'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Mode file .*broken\.yaml is invalid at slug/);
    assert.doesNotMatch(run.stderr, /deprecated/);
    const unknown = await runCli({ args: [...args(), '--trust-workspace', '--mode', 'nope', 'x'] });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown mode "nope"; available: code, architect, ask, orchestrator, reviewer/);
  });

  test('the older spellings still work for this release, each with a note on stderr', async () => {
    // A mode file directly in .smith/skills/ (where modes lived), --skill for --mode, --mode plan for --plan.
    fx.ws.write('.smith/skills/legacy.yaml', 'slug: legacy\nname: Legacy\nroleDefinition: You are the legacy reviewer.\ngroups: [read]\n');
    fx.ws.write('.smith/skills/pdf/SKILL.md', '---\nname: pdf\ndescription: Reads PDFs\n---\nUse pdftotext.\n');
    fx.server.enqueue((request) => {
      assert.match(systemPromptOf(request), /You are the legacy reviewer\./);
      assert.doesNotMatch(systemPromptOf(request), /## write_to_file/);
      return complete('Reviewed.');
    });
    const run = await runCli({ args: [...args(), '--trust-workspace', '--skill', 'legacy', 'Review'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /--skill is deprecated .*use --mode NAME/);
    assert.match(run.stderr, /Mode files in \.smith\/skills are deprecated; move them to \.smith\/modes: legacy\.yaml\n/);
    assert.doesNotMatch(run.stderr, /Mode file[^\n]*(SKILL\.md|pdf)|move them[^\n]*pdf/, 'an Agent Skill folder is not a mode file');

    fx.server.enqueue((request) => {
      assert.match(systemPromptOf(request), /# Mode: PLAN/);
      return reply('<plan_mode_respond>\n<response>A plan.</response>\n</plan_mode_respond>');
    });
    const plan = await runCli({ args: [...args(), '--mode', 'plan', '--output', 'json', 'Plan it'] });
    assert.equal(plan.code, 0, plan.stderr);
    assert.equal(JSON.parse(plan.stdout).result, 'A plan.');
    assert.match(plan.stderr, /--mode plan is deprecated for Plan\/Act .* use --plan/);

    // A mode named "plan" wins over the older reading.
    fx.ws.write('.smith/modes/plan.yaml', 'slug: plan\nname: Planner\nroleDefinition: You are the planning persona.\ngroups: [read]\n');
    fx.server.enqueue((request) => {
      assert.match(systemPromptOf(request), /You are the planning persona\./);
      assert.match(systemPromptOf(request), /# Mode: ACT/);
      return complete('Planned as a mode.');
    });
    const named = await runCli({ args: [...args(), '--trust-workspace', '--mode', 'plan', 'Plan it'] });
    assert.equal(named.code, 0, named.stderr);
    assert.doesNotMatch(named.stderr, /--mode plan is deprecated/);

    const both = await runCli({ args: [...args(), '--mode', 'ask', '--skill', 'architect', 'x'] });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--skill is the older spelling of --mode; give one of them/);
  });

  test('rules from .smithrules/, AGENTS.md and the global folder reach the system prompt; new_rule adds one', async () => {
    fx.ws.write('.smithrules/style.md', 'Always use tabs.');
    fx.ws.write('AGENTS.md', 'Run npm test before finishing.');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(fx.storage, 'rules'), { recursive: true });
    writeFileSync(join(fx.storage, 'rules', 'me.md'), 'Answer in British English.');
    fx.server.enqueue(reply('<new_rule>\n<path>testing.md</path>\n<content>\nPrefer node:test.\n</content>\n</new_rule>'), (request) => {
      const prompt = systemPromptOf(request);
      for (const rule of ['Always use tabs.', 'Run npm test before finishing.', 'Answer in British English.', 'Prefer node:test.']) {
        assert.ok(prompt.includes(rule), `missing rule: ${rule}`);
      }
      return complete('Rule added.');
    });
    const run = await runCli({ args: [...args(), 'Remember to prefer node:test'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.ws.read('.smithrules/testing.md'), 'Prefer node:test.\n');
  });

  test('.smithignore blocks reads and edits, and the model is told why', async () => {
    fx.ws.write('.smithignore', 'secrets/\n');
    fx.ws.write('secrets/key.txt', 'hunter2\n');
    fx.server.enqueue(reply('<read_file>\n<path>secrets/key.txt</path>\n</read_file>'), (request) => {
      assert.match(lastUserText(request), /Access to secrets\/key.txt is blocked by the \.smithignore file/);
      assert.doesNotMatch(lastUserText(request), /hunter2/);
      return complete('Could not read it.');
    });
    const run = await runCli({ args: [...args(), 'Read the key'] });
    assert.equal(run.code, 0, run.stderr);
  });

  test('--yes still asks before writing outside the workspace', async () => {
    const outside = createTempWorkspace('smith-outside-');
    try {
      fx.server.enqueue(write(join(outside.root, 'evil.txt'), 'x'), (request) => {
        assert.match(lastUserText(request), /The user denied this operation/);
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
    fx.ws.write('a.txt', 'alpha\n');
    fx.server.enqueue(
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
    fx.server.enqueue(reply('<new_task>\n<context>Goal: finish the README.</context>\n</new_task>'), (request) => {
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
