// Agent Skills through the CLI: a skill from .claude/skills is listed in the prompt by name and
// description, loaded with use_skill, followed, and its allowed-tools refuse another tool while it
// is active; an untrusted workspace's skills are not offered; --skill-dir and /skills.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { lastUserText, systemPromptOf, useAgentFixture } from '../../helpers/agent-fixture.js';
import { startCliOnPty } from '../../helpers/cli-pty.js';
import { runCli } from '../../helpers/cli-runner.js';
import { loadSkillCatalog } from '../../../src/core/skills/skill-catalog.js';
import { rememberWorkspaceSkills } from '../../../src/core/skills/skill-trust.js';

const RELEASE_SKILL = `---
name: release-notes
description: Write the release notes. Use when the user asks for release notes.
allowed-tools: Read Write(NOTES.md)
---
# Release notes
Write NOTES.md whose first line is exactly "Release notes (house style 7)".
`;

function eventsOf(storage: string): Array<Record<string, unknown>> {
  const tasks = join(storage, 'tasks');
  const [taskId] = readdirSync(tasks);
  return readFileSync(join(tasks, taskId!, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('smith CLI: Agent Skills', () => {
  const fx = useAgentFixture();
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'smith-home-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  test('a .claude/skills skill is listed, loaded, followed, and its allowed-tools refuse a command while it is active', { timeout: 120_000 }, async () => {
    fx.ws.write('.claude/skills/release-notes/SKILL.md', RELEASE_SKILL);
    fx.ws.write('.claude/skills/release-notes/scripts/collect.sh', 'git log --oneline\n');
    fx.server.enqueue(
      { text: '<use_skill>\n<skill_name>release-notes</skill_name>\n</use_skill>' },
      { text: '<execute_command>\n<command>touch ran.txt</command>\n<requires_approval>false</requires_approval>\n</execute_command>' },
      { text: '<write_to_file>\n<path>NOTES.md</path>\n<content>\nRelease notes (house style 7)\n</content>\n</write_to_file>' },
      { text: '<attempt_completion>\n<result>Written.</result>\n</attempt_completion>' },
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--trust-workspace', 'Write the release notes'], env: { HOME: home }, timeoutMs: 90_000 });
    assert.equal(run.code, 0, run.stderr);
    const first = systemPromptOf(fx.server.requestAt(0));
    assert.match(first, /# Skills[\s\S]*- release-notes: Write the release notes\. Use when the user asks for release notes\./);
    assert.match(first, /use_skill/);
    assert.doesNotMatch(first, /house style 7/, 'the instructions wait until the skill is loaded');
    const loaded = lastUserText(fx.server.requestAt(1));
    assert.match(loaded, /Write NOTES\.md whose first line is exactly "Release notes \(house style 7\)"/);
    assert.match(loaded, /- scripts\/collect\.sh/);
    assert.match(loaded, /you may use only: Read, Write\(NOTES\.md\)/);
    assert.match(
      lastUserText(fx.server.requestAt(2)),
      /The release-notes skill is active and its allowed-tools permit only Read, Write\(NOTES\.md\).*execute_command call was not run/,
    );
    assert.equal(existsSync(join(fx.ws.root, 'ran.txt')), false, 'the refused command never ran');
    assert.equal(fx.ws.read('NOTES.md'), 'Release notes (house style 7)\n');
    const skillLoaded = eventsOf(fx.storage).find((e) => e.type === 'skill_loaded');
    assert.ok(skillLoaded, 'skill_loaded is logged');
    assert.equal(skillLoaded.name, 'release-notes');
    assert.equal(skillLoaded.location, '.claude/skills');
    assert.deepEqual(skillLoaded.rules, ['Read', 'Write(NOTES.md)']);
  });

  test("an untrusted workspace's skills are not offered (and stderr says so); the user's own skill is", { timeout: 120_000 }, async () => {
    fx.ws.write('.claude/skills/release-notes/SKILL.md', RELEASE_SKILL);
    mkdirSync(join(home, '.claude/skills/mine'), { recursive: true });
    writeFileSync(join(home, '.claude/skills/mine/SKILL.md'), '---\nname: mine\ndescription: My own skill.\n---\nMine.\n');
    fx.server.enqueue(
      { text: '<use_skill>\n<skill_name>release-notes</skill_name>\n</use_skill>' },
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Write the release notes'], env: { HOME: home }, timeoutMs: 90_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /The skills of this workspace \(release-notes \(\.claude\/skills\)\) are not offered: they are not trusted/);
    const first = systemPromptOf(fx.server.requestAt(0));
    assert.match(first, /- mine: My own skill\./);
    assert.doesNotMatch(first, /release-notes/);
    assert.match(lastUserText(fx.server.requestAt(1)), /No skill named "release-notes" is available\. Available skills: mine\./);
  });

  test('an earlier yes holds for the exact skill files: a changed SKILL.md is not offered until asked again', { timeout: 120_000 }, async () => {
    fx.ws.write('.claude/skills/release-notes/SKILL.md', RELEASE_SKILL);
    const { workspace } = loadSkillCatalog({ workspaceRoots: [fx.ws.root], storageDir: fx.storage, homeDir: home, workspaceTrusted: () => false });
    rememberWorkspaceSkills(fx.storage, fx.ws.root, workspace!.fingerprint, true);
    fx.server.enqueue(
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
    );
    const trusted = await runCli({ args: [...fx.cliArgs(), 'Write the release notes'], env: { HOME: home }, timeoutMs: 60_000 });
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.match(systemPromptOf(fx.server.requestAt(0)), /- release-notes: Write the release notes/);
    fx.ws.write('.claude/skills/release-notes/SKILL.md', RELEASE_SKILL.replace('house style 7', 'house style 8'));
    const changed = await runCli({ args: [...fx.cliArgs(), 'Write the release notes'], env: { HOME: home }, timeoutMs: 60_000 });
    assert.equal(changed.code, 0, changed.stderr);
    assert.doesNotMatch(systemPromptOf(fx.server.requestAt(1)), /release-notes/);
    assert.match(changed.stderr, /are not offered: they are not trusted/);
  });

  test('--skill-dir adds a folder (and a missing one is a usage error); without skills the prompt has no Skills section and no use_skill', {
    timeout: 120_000,
  }, async () => {
    const missing = await runCli({ args: [...fx.cliArgs(), '--skill-dir', join(home, 'nope'), 'x'], env: { HOME: home } });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--skill-dir .*nope: no such folder/);
    const dir = join(home, 'extra');
    mkdirSync(join(dir, 'lint-fix'), { recursive: true });
    writeFileSync(join(dir, 'lint-fix/SKILL.md'), '---\nname: lint-fix\ndescription: Fix lint errors.\n---\nRun the linter.\n');
    fx.server.enqueue(
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
    );
    const withDir = await runCli({ args: [...fx.cliArgs(), '--skill-dir', dir, 'Fix lint'], env: { HOME: home }, timeoutMs: 60_000 });
    assert.equal(withDir.code, 0, withDir.stderr);
    assert.match(systemPromptOf(fx.server.requestAt(0)), /- lint-fix: Fix lint errors\./);
    const without = await runCli({ args: [...fx.cliArgs(), 'Fix lint'], env: { HOME: home }, timeoutMs: 60_000 });
    assert.equal(without.code, 0, without.stderr);
    const prompt = systemPromptOf(fx.server.requestAt(1));
    assert.doesNotMatch(prompt, /# Skills|use_skill/);
  });

  test('/skills in the REPL lists each skill with where it comes from and why one is not offered', { timeout: 120_000 }, async () => {
    fx.ws.write('.claude/skills/release-notes/SKILL.md', RELEASE_SKILL);
    fx.ws.write('.smith/skills/Broken/SKILL.md', '---\nname: Broken\ndescription: x\n---\n');
    mkdirSync(join(home, '.claude/skills/release-notes'), { recursive: true });
    writeFileSync(join(home, '.claude/skills/release-notes/SKILL.md'), RELEASE_SKILL);
    const cli = startCliOnPty([...fx.cliArgs(), '--trust-workspace'], { HOME: home });
    try {
      await cli.waitFor(/smith> /);
      const before = cli.output.length;
      await cli.type('/skills', 1);
      await cli.waitFor(/off +Broken +\.smith\/skills +\(not used: its SKILL\.md name "Broken"/, before);
      await cli.waitFor(/on +release-notes +\.claude\/skills/, before);
      await cli.waitFor(/off +release-notes +~\/\.claude\/skills +\(not offered: the skill of the same name in \.claude\/skills comes first\)/, before);
      await cli.type('/exit', 2);
      assert.equal(await cli.exited, 0);
    } catch (error) {
      cli.kill();
      throw new Error(`${(error as Error).message}\n--- terminal ---\n${cli.output}`);
    }
  });
});
