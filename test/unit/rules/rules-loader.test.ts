import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { loadRules, MAX_RULE_CHARS } from '../../../src/core/rules/rules-loader.js';
import { parseRule } from '../../../src/core/rules/rule-front-matter.js';
import { touchedPaths } from '../../../src/core/rules/touched-paths.js';
import type { TaskEvent } from '../../../src/core/log/events.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let ws: TempWorkspace;
let home: string;
beforeEach(() => {
  ws = createTempWorkspace('smith-rules-');
  home = mkdtempSync(join(tmpdir(), 'smith-home-'));
});
afterEach(() => {
  ws.dispose();
  rmSync(home, { recursive: true, force: true });
});
const load = (extra: Partial<Parameters<typeof loadRules>[0]> = {}) => loadRules({ workspaceRoot: ws.root, homeDir: home, ...extra });

describe('rules files', () => {
  test('reads the rules files of other agents, in order from general to specific', () => {
    ws.write('.smithrules', 'smith rule');
    ws.write('AGENTS.md', 'agents rule');
    ws.write('CLAUDE.md', 'claude rule');
    ws.write('.clinerules/style.md', 'cline rule');
    ws.write('.clinerules/workflows/release.md', 'a workflow, not a rule');
    ws.write('.cursorrules', 'cursor legacy rule');
    ws.write('.cursor/rules/react.mdc', '---\nalwaysApply: true\n---\ncursor rule');
    ws.write('.windsurfrules', 'windsurf rule');
    ws.write('.github/copilot-instructions.md', 'copilot rule');
    ws.write('.roo/rules/general.md', 'roo rule');
    ws.write('.roo/rules-architect/plan.md', 'roo architect rule');
    const rules = load({ modeSlug: 'code' });
    assert.deepEqual(rules.sources, [
      '.smithrules',
      'AGENTS.md',
      'CLAUDE.md',
      '.clinerules/style.md',
      '.cursorrules',
      '.cursor/rules/react.mdc',
      '.windsurfrules',
      '.github/copilot-instructions.md',
      '.roo/rules/general.md',
    ]);
    assert.doesNotMatch(rules.section, /a workflow, not a rule|roo architect rule|alwaysApply/);
    assert.ok(rules.section.indexOf('smith rule') < rules.section.indexOf('roo rule'));
    assert.match(load({ modeSlug: 'architect' }).section, /roo architect rule/);
  });

  test('the user-level CLAUDE.md and the global rules folder come first', () => {
    ws.write('AGENTS.md', 'workspace rule');
    const global = join(home, 'smith-rules');
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', 'CLAUDE.md'), 'user claude rule');
    mkdirSync(global);
    writeFileSync(join(global, 'me.md'), 'global rule');
    assert.deepEqual(load({ globalRulesDir: global }).sources, ['global rules: me.md', '~/.claude/CLAUDE.md', 'AGENTS.md']);
  });

  test('conditional rules apply once the task touches a matching file', () => {
    ws.write('.clinerules/tests.md', '---\npaths:\n  - "test/**"\n---\nUse node:test.');
    ws.write('.cursor/rules/react.mdc', '---\ndescription: React\nglobs: "*.tsx, *.jsx"\nalwaysApply: false\n---\nUse hooks.');
    ws.write('.github/copilot-instructions.md', '---\napplyTo: "**/*.py"\n---\nUse type hints.');
    const idle = load();
    assert.deepEqual(idle.sources, []);
    assert.deepEqual(
      idle.rules.map((r) => [r.label, r.active, r.note]),
      [
        ['.clinerules/tests.md', false, 'applies when the task touches test/**'],
        ['.cursor/rules/react.mdc', false, 'applies when the task touches *.tsx, *.jsx'],
        ['.github/copilot-instructions.md', false, 'applies when the task touches **/*.py'],
      ],
    );
    const touched = load({ touchedPaths: ['src/ui/button.tsx', 'test/a.test.ts'] });
    assert.deepEqual(touched.sources, ['.clinerules/tests.md', '.cursor/rules/react.mdc']);
    assert.match(touched.section, /Use node:test\.[\s\S]*Use hooks\./);
    assert.doesNotMatch(touched.section, /globs|paths:/);
  });

  test('AGENTS.md and CLAUDE.md in the folders the task touched, the closest last', () => {
    ws.write('AGENTS.md', 'root');
    ws.write('packages/api/AGENTS.md', 'api package');
    ws.write('packages/api/src/CLAUDE.md', 'api sources');
    ws.write('packages/web/AGENTS.md', 'web package (not touched)');
    ws.write('packages/api/src/server.ts', '');
    const rules = load({ touchedPaths: ['packages/api/src/server.ts'] });
    assert.deepEqual(rules.sources, ['AGENTS.md', 'packages/api/AGENTS.md', 'packages/api/src/CLAUDE.md']);
    assert.deepEqual(load({ touchedPaths: ['packages/web'] }).sources, ['AGENTS.md', 'packages/web/AGENTS.md'], 'a touched folder counts too');
  });

  test('rules the user turned off are listed but not sent; huge files are cut; bad front matter is reported', () => {
    ws.write('AGENTS.md', 'keep');
    ws.write('CLAUDE.md', 'off');
    ws.write('.windsurfrules', 'w'.repeat(MAX_RULE_CHARS + 10));
    ws.write('.cursorrules', '---\nglobs: [unclosed\n---\nstill applies');
    const rules = load({ disabled: new Set(['CLAUDE.md']) });
    assert.deepEqual(rules.sources, ['AGENTS.md', '.windsurfrules']);
    assert.deepEqual(
      rules.rules.find((r) => r.label === 'CLAUDE.md'),
      { label: 'CLAUDE.md', path: join(ws.root, 'CLAUDE.md'), active: false, note: 'turned off' },
    );
    assert.match(rules.section, /\[This rules file was cut at 20000 characters\.\]/);
    assert.deepEqual(rules.rules.find((r) => r.label === '.cursorrules')?.active, false);
    assert.match(
      rules.rules.find((r) => r.label === '.cursorrules')?.note ?? '',
      /front matter cannot be read \(globs: unclosed list "\[unclosed"\); the rule is not applied/,
    );
    assert.doesNotMatch(rules.section, /still applies/);
    assert.deepEqual(rules.notes.filter((note) => note.startsWith('.cursorrules: ')).length, 1);
  });

  test('a Cursor rule with unquoted globs stays conditional; a broken front matter is one note and no always-on rule', () => {
    ws.write('.cursor/rules/lang/python.mdc', '---\ndescription:\nglobs: **/*.py, scripts/*.sh\nalwaysApply: false\n---\nUse type hints.');
    ws.write('.cursor/rules/broken.mdc', '---\nglobs **/*.py\n---\nBroken rule.');
    ws.write('.cursor/rules/manual.mdc', '---\ndescription:\nglobs:\nalwaysApply: false\n---\nManual rule.');
    ws.write('.cursor/rules/requested.mdc', '---\ndescription: When writing SQL\nglobs:\nalwaysApply: false\n---\nRequested rule.');
    const idle = load({ touchedPaths: ['src/a.ts'] });
    assert.deepEqual(idle.sources, ['.cursor/rules/requested.mdc']);
    assert.deepEqual(
      idle.rules.map((r) => [r.label, r.active]),
      [
        ['.cursor/rules/broken.mdc', false],
        ['.cursor/rules/lang/python.mdc', false],
        ['.cursor/rules/manual.mdc', false],
        ['.cursor/rules/requested.mdc', true],
      ],
    );
    assert.deepEqual(idle.notes, ['.cursor/rules/broken.mdc: front matter cannot be read (line 1 ("globs **/*.py") cannot be read); the rule is not applied']);
    const touched = load({ touchedPaths: ['src/a.ts', 'pkg/mod/x.py'] });
    assert.deepEqual(touched.sources, ['.cursor/rules/lang/python.mdc', '.cursor/rules/requested.mdc']);
    assert.doesNotMatch(touched.section, /Broken rule|Manual rule|globs/);
  });

  test('GEMINI.md is read like CLAUDE.md: at the top, in touched folders, and from ~/.gemini', () => {
    ws.write('CLAUDE.md', 'claude rule');
    ws.write('GEMINI.md', 'gemini rule');
    ws.write('pkg/GEMINI.md', 'nested gemini rule');
    ws.write('pkg/a.ts', '');
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', 'CLAUDE.md'), 'user claude rule');
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'GEMINI.md'), 'user gemini rule');
    const rules = load({ touchedPaths: ['pkg/a.ts'] });
    assert.deepEqual(rules.sources, ['~/.claude/CLAUDE.md', '~/.gemini/GEMINI.md', 'CLAUDE.md', 'GEMINI.md', 'pkg/GEMINI.md']);
    assert.match(rules.section, /user gemini rule[\s\S]*gemini rule[\s\S]*nested gemini rule/);
  });
});

describe('rule front matter and touched paths', () => {
  test('parseRule reads paths, globs, applyTo and alwaysApply', () => {
    assert.deepEqual(parseRule('no front matter').conditions, { globs: [], alwaysApply: true });
    assert.deepEqual(parseRule('---\nglobs: a.ts, b.ts\n---\nx').conditions, { globs: ['a.ts', 'b.ts'], alwaysApply: false });
    assert.deepEqual(parseRule('---\nglobs: "*.ts"\nalwaysApply: true\n---\nx').conditions, { globs: ['*.ts'], alwaysApply: true });
    assert.equal(parseRule('---\ndescription: d\n---\nbody').body, 'body');
  });

  test('touchedPaths takes the paths of tool calls inside the workspace', () => {
    const requested = (path: string, seq: number): TaskEvent => ({
      type: 'tool_requested',
      callId: `c${seq}`,
      tool: 'read_file',
      params: { path },
      seq,
      ts: 0,
    });
    const events = [requested('src/a.ts', 1), requested('./src/a.ts', 2), requested('../outside.ts', 3), requested('/etc/passwd', 4), requested('docs', 5)];
    assert.deepEqual(touchedPaths(events, '/work/ws'), ['src/a.ts', 'docs']);
  });
});
