// "Always allow this": the narrowest rules that allow a call again, and writing them to a settings
// file. (The command parser loads tree-sitter's wasm, so this is not a unit test.)
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { addAllowRules, narrowestAllowRules } from '../../../src/core/permissions/allow-rules.js';
import { judgeCall, type PermissionRule } from '../../../src/core/permissions/permission-rules.js';
import { loadPermissionSettings } from '../../../src/core/permissions/settings-files.js';
import { WorkspaceTrust } from '../../../src/core/mcp/workspace-trust.js';
import { rememberAllowRules } from '../../../src/core/permissions/remember-allow-rules.js';

const allow = (rules: readonly string[]): PermissionRule[] => rules.map((rule) => ({ effect: 'allow', rule, source: 'test' }));

describe('always allow', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'smith-allow-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('the narrowest rules allow the same call again and no other', async () => {
    const cwd = '/work/project';
    const cases: Array<[string, Record<string, string>, string[], Record<string, string>]> = [
      ['execute_command', { command: 'npm test' }, ['Bash(npm test)'], { command: 'npm test -- --watch' }],
      ['execute_command', { command: 'git status && npm test' }, ['Bash(git status)', 'Bash(npm test)'], { command: 'git status && rm -rf /' }],
      ['write_to_file', { path: 'src/a.ts' }, ['Edit(src/a.ts)'], { path: 'src/b.ts' }],
      ['read_file', { path: 'README.md' }, ['Read(./README.md)'], { path: 'docs/README.md' }],
      ['read_file', { path: '/etc/hosts' }, ['Read(/etc/hosts)'], { path: '/etc/passwd' }],
      [
        'use_mcp_tool',
        { server_name: 'github', tool_name: 'create_issue' },
        ['mcp__github__create_issue'],
        { server_name: 'github', tool_name: 'delete_repo' },
      ],
      ['web_fetch', { url: 'https://docs.example.com/a' }, ['WebFetch(domain:docs.example.com)'], { url: 'https://example.com/a' }],
    ];
    for (const [tool, params, expected, other] of cases) {
      const rules = await narrowestAllowRules(tool, params, cwd);
      assert.deepEqual(rules, expected, tool);
      assert.equal((await judgeCall(allow(rules!), { tool, params, cwd }))?.effect, 'allow', `${tool} again`);
      assert.equal(await judgeCall(allow(rules!), { tool, params: other, cwd }), undefined, `${tool} ${JSON.stringify(other)}`);
    }
    // A search is allowed again as a whole (its query names nothing a rule could): WebSearch, which allows no other tool.
    const search = await narrowestAllowRules('web_search', { query: 'node fs cp' }, cwd);
    assert.deepEqual(search, ['WebSearch']);
    assert.equal((await judgeCall(allow(search!), { tool: 'web_search', params: { query: 'other words' }, cwd }))?.effect, 'allow');
    assert.equal(await judgeCall(allow(search!), { tool: 'web_fetch', params: { url: 'https://example.com/' }, cwd }), undefined);
    assert.deepEqual(
      await narrowestAllowRules('execute_command', { command: 'echo $(whoami)' }, cwd),
      ['Bash(echo $(whoami))', 'Bash(whoami)'],
      'a substitution is a command of its own',
    );
    assert.equal(await narrowestAllowRules('execute_command', { command: 'eval "$CMD"' }, cwd), undefined, 'what no rule may allow offers no rule');
    assert.equal(await narrowestAllowRules('execute_command', { command: 'echo hi > out.txt' }, cwd), undefined, 'nor output to a file');
  });

  test('rules are added to the settings file, keeping its comments, once each', () => {
    const file = join(dir, '.smith', 'settings.json');
    assert.deepEqual(addAllowRules(file, ['Bash(npm test)']), ['Bash(npm test)']);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { permissions: { allow: ['Bash(npm test)'] } });
    writeFileSync(file, '{\n  // mine\n  "permissions": { "deny": ["Read(.env)"], "allow": ["Bash(npm test)"] }\n}\n');
    assert.deepEqual(addAllowRules(file, ['Bash(npm test)', 'Edit(src/a.ts)']), ['Edit(src/a.ts)']);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /\/\/ mine/);
    assert.match(text, /"deny": \["Read\(\.env\)"\]/);
    assert.match(text, /"Bash\(npm test\)",\s*"Edit\(src\/a\.ts\)"/);
    assert.deepEqual(addAllowRules(file, ['Edit(src/a.ts)']), [], 'nothing twice');
  });

  test('for the workspace: the user’s own rule keeps the file trusted; a file with untrusted rules refuses it', () => {
    const storage = join(dir, 'storage');
    const ws = join(dir, 'ws');
    const trust = new WorkspaceTrust({ storageDir: storage });
    const rules = () => loadPermissionSettings({ storageDir: storage, workspaceRoot: ws, trust: trust.check }).rules.map((r) => r.rule);
    rememberAllowRules(['Bash(npm test)'], 'workspace', { storageDir: storage, cwd: ws });
    assert.deepEqual(rules(), ['Bash(npm test)'], 'the added rule applies at once');
    writeFileSync(join(ws, '.smith', 'settings.json'), '{"permissions": {"allow": ["Bash(npm test)", "Bash(curl:*)"]}}');
    assert.deepEqual(rules(), [], 'a rule someone else added waits for trust');
    assert.throws(() => rememberAllowRules(['Edit(src/a.ts)'], 'workspace', { storageDir: storage, cwd: ws }), /not trusted yet: allow this for you instead/);
    const file = rememberAllowRules(['Edit(src/a.ts)'], 'user', { storageDir: storage, cwd: ws });
    assert.equal(file, join(storage, 'settings.json'));
    assert.deepEqual(rules(), ['Edit(src/a.ts)']);
  });
});
