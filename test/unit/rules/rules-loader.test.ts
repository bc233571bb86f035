import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { loadRules, MAX_RULE_CHARS } from '../../../src/core/rules/rules-loader.js';
import { parseRule } from '../../../src/core/rules/rule-front-matter.js';
import { touchedPaths } from '../../../src/core/rules/touched-paths.js';
import type { TaskEvent } from '../../../src/core/task/events.js';
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
    const rules = load({ skill: 'code' });
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
    assert.match(load({ skill: 'architect' }).section, /roo architect rule/);
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
    assert.deepEqual(rules.sources, ['AGENTS.md', '.cursorrules', '.windsurfrules']);
    assert.deepEqual(rules.rules.find((r) => r.label === 'CLAUDE.md'), { label: 'CLAUDE.md', path: join(ws.root, 'CLAUDE.md'), active: false, note: 'turned off' });
    assert.match(rules.section, /\[This rules file was cut at 20000 characters\.\]/);
    assert.match(rules.rules.find((r) => r.label === '.cursorrules')?.note ?? '', /front matter is not valid YAML/);
    assert.match(rules.section, /still applies/);
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
    const requested = (path: string, seq: number): TaskEvent => ({ type: 'tool_requested', callId: `c${seq}`, tool: 'read_file', params: { path }, seq, ts: 0 });
    const events = [requested('src/a.ts', 1), requested('./src/a.ts', 2), requested('../outside.ts', 3), requested('/etc/passwd', 4), requested('docs', 5)];
    assert.deepEqual(touchedPaths(events, '/work/ws'), ['src/a.ts', 'docs']);
  });
});
