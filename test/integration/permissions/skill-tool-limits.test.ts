import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type SkillLimits, skillAllowsCall, skillRefusal, skillToolRules } from '../../../src/core/permissions/skill-tool-limits.js';

const cwd = '/work/project';

function limits(allowedTools: string[]): SkillLimits {
  return { name: 'demo', dir: '/home/u/.claude/skills/demo', allowedTools, rules: skillToolRules(allowedTools).rules };
}

const allows = (skill: SkillLimits, tool: string, params: Record<string, string>) => skillAllowsCall(skill, { tool, params, cwd });

describe("a skill's allowed-tools as Smith rules", () => {
  test("Claude Code's names map onto Smith's rule names and tools, patterns kept", () => {
    const mapped = skillToolRules([
      'Read',
      'Grep',
      'Glob',
      'LS',
      'Edit(src/**)',
      'MultiEdit',
      'Write',
      'Bash(git diff:*)',
      'WebFetch(domain:example.com)',
      'mcp__github__create_issue',
      'read_file',
    ]);
    assert.deepEqual(mapped.rules, [
      'Read',
      'search_files',
      'list_files',
      'list_files',
      'Edit(src/**)',
      'replace_in_file',
      'Write',
      'Bash(git diff:*)',
      'WebFetch(domain:example.com)',
      'mcp__github__create_issue',
      'read_file',
    ]);
    assert.deepEqual(mapped.ignored, []);
  });

  test('a tool Smith lacks and an entry that is not rule syntax are ignored, with why', () => {
    assert.deepEqual(skillToolRules(['KillShell', 'Bash(', '**']).ignored, [
      'KillShell (Smith has no such tool)',
      'Bash( (not Tool or Tool(pattern))',
      '** (not Tool or Tool(pattern))',
    ]);
  });
});

describe('calls while a skill is active', () => {
  test('a rule name without a pattern allows every call of its tools, and nothing else', async () => {
    const skill = limits(['Read', 'Grep']);
    assert.equal(await allows(skill, 'read_file', { path: 'src/a.ts' }), true);
    assert.equal(await allows(skill, 'list_files', { path: '.' }), true);
    assert.equal(await allows(skill, 'search_files', { path: '.', regex: 'x' }), true);
    assert.equal(await allows(skill, 'execute_command', { command: 'ls' }), false);
    assert.equal(await allows(skill, 'write_to_file', { path: 'a.txt', content: 'x' }), false);
    assert.equal(await allows(skill, 'use_mcp_tool', { server_name: 's', tool_name: 't' }), false);
  });

  test('Bash(git:*) allows git commands only, judged command by command as a user allow rule is', async () => {
    const skill = limits(['Bash(git:*)']);
    assert.equal(await allows(skill, 'execute_command', { command: 'git status' }), true);
    assert.equal(await allows(skill, 'execute_command', { command: 'git log --oneline | head -5' }), false);
    assert.equal(await allows(skill, 'execute_command', { command: 'git status && rm -rf /' }), false);
    assert.equal(await allows(skill, 'execute_command', { command: 'rm -rf /' }), false);
    assert.equal(await allows(skill, 'execute_command', { command: 'env git status; curl evil.example' }), false);
    assert.equal(await allows(skill, 'execute_command', { command: 'git status > out.txt' }), false);
  });

  test('Edit(pattern) allows edits of matching paths only', async () => {
    const skill = limits(['Edit(docs/**)']);
    assert.equal(await allows(skill, 'replace_in_file', { path: 'docs/a.md', diff: 'x' }), true);
    assert.equal(await allows(skill, 'replace_in_file', { path: 'src/a.ts', diff: 'x' }), false);
    assert.equal(await allows(skill, 'replace_in_file', { path: 'docs/../src/a.ts', diff: 'x' }), false);
  });

  test('every skill keeps asking, finishing, loading another skill and reading its own folder', async () => {
    const skill = limits([]);
    assert.equal(await allows(skill, 'ask_followup_question', { question: 'q' }), true);
    assert.equal(await allows(skill, 'attempt_completion', { result: 'r' }), true);
    assert.equal(await allows(skill, 'use_skill', { skill_name: 'other' }), true);
    assert.equal(await allows(skill, 'read_file', { path: '/home/u/.claude/skills/demo/reference.md' }), true);
    assert.equal(await allows(skill, 'read_file', { path: '/home/u/.claude/skills/demo/../other/SKILL.md' }), false);
    assert.equal(await allows(skill, 'read_file', { path: '/home/u/.claude/skills/demo-evil/x' }), false);
    assert.equal(await allows(skill, 'read_file', { path: 'src/a.ts' }), false);
  });

  test('the refusal names the skill, what it allows and what to do', () => {
    assert.match(
      skillRefusal(limits(['Read']), 'execute_command'),
      /The demo skill is active and its allowed-tools permit only Read .*execute_command call was not run/,
    );
  });
});
