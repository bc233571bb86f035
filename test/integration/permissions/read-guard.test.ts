// The read guard judges a file as a read_file call on it is judged (the same code): written
// however, through links, in another workspace folder; deny and ask withhold, allow never does.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { judgeCall, type PermissionRule } from '../../../src/core/permissions/permission-rules.js';
import { createReadGuard } from '../../../src/core/permissions/read-rule-guard.js';
import { WorkspaceRoots } from '../../../src/core/workspace/workspace-roots.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

const rule = (effect: PermissionRule['effect'], text: string): PermissionRule => ({ effect, rule: text, source: 'test' });

describe('read guard', () => {
  let ws: TempWorkspace;
  let other: TempWorkspace;
  beforeEach(() => {
    ws = createTempWorkspace();
    other = createTempWorkspace('smith-api-');
    ws.write('.env', 'A=1\n');
    ws.write('src/app.ts', 'x\n');
    ws.write('src/.env', 'B=1\n');
    other.write('keys/id.key', 'k\n');
  });
  afterEach(() => {
    ws.dispose();
    other.dispose();
  });

  test('every spelling of a denied path is withheld, as judgeCall judges read_file on it', async () => {
    symlinkSync(join(ws.root, '.env'), join(ws.root, 'innocent.txt'));
    mkdirSync(join(ws.root, 'links'));
    symlinkSync(join(ws.root, 'src'), join(ws.root, 'links/code'));
    const rules = [rule('deny', 'Read(./.env)'), rule('allow', 'Read(**)')];
    const guard = createReadGuard(rules, { cwd: ws.root });
    for (const path of ['.env', './.env', 'src/../.env', join(ws.root, '.env'), 'innocent.txt', join(ws.root, 'innocent.txt')]) {
      assert.deepEqual(guard.refusal(path), { effect: 'deny', rule: 'Read(./.env)', source: 'test' }, path);
      assert.equal((await judgeCall(rules, { tool: 'read_file', params: { path }, cwd: ws.root }))?.effect, 'deny', path);
    }
    // `./.env` is the top-level file only; an allow rule never withholds.
    for (const path of ['src/.env', 'links/code/.env', 'src/app.ts']) assert.equal(guard.refusal(path), undefined, path);
  });

  test('a file reached through a folder link is judged where it lies, also when the folder was resolved before', () => {
    mkdirSync(join(ws.root, 'links'));
    symlinkSync(join(ws.root, 'src'), join(ws.root, 'links/code'));
    const guard = createReadGuard([rule('deny', 'Read(src/.env)')], { cwd: ws.root });
    assert.equal(guard.refusal(join(ws.root, 'links/code/app.ts')), undefined);
    assert.equal(guard.refusal(join(ws.root, 'links/code/.env'))?.effect, 'deny');
    assert.equal(guard.refusal('links/code/.env')?.effect, 'deny');
  });

  test('a bare pattern matches at any depth, in every folder, by the name the tools give it', () => {
    const workspace = WorkspaceRoots.open(ws.root, [{ path: other.root }]);
    const api = workspace.prefixOf(workspace.all[1]!);
    const guard = createReadGuard([rule('deny', 'Read(.env)'), rule('ask', `Read(${api}/keys/**)`)], { cwd: ws.root, workspace });
    assert.equal(guard.refusal(join(ws.root, 'links-none/../src/.env'))?.effect, 'deny');
    assert.deepEqual(guard.refusal(join(other.root, 'keys/id.key')), { effect: 'ask', rule: `Read(${api}/keys/**)`, source: 'test' });
    assert.equal(guard.refusal(`${api}/keys/id.key`)?.effect, 'ask');
    assert.equal(guard.refusal('src/app.ts'), undefined);
  });

  test('covers: only deny and ask rules of the tool (or its family) make the guard judge', () => {
    assert.equal(createReadGuard([rule('allow', 'Read(**)'), rule('deny', 'Bash(cat:*)')], { cwd: ws.root }).covers(), false);
    const searchOnly = createReadGuard([rule('deny', 'search_files(.env)')], { cwd: ws.root });
    assert.equal(searchOnly.covers('search_files'), true);
    assert.equal(searchOnly.covers('read_file'), false);
    assert.equal(searchOnly.refusal('.env', 'search_files')?.effect, 'deny');
    assert.equal(searchOnly.refusal('.env'), undefined);
  });
});
