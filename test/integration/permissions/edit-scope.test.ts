// A sub-agent's declared paths: what a declaration may say, which declarations may run side by
// side, and where an edit's path really leads.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { declarationProblem, declarationsOverlap, editScopeRefusal } from '../../../src/core/permissions/edit-scope.js';
import { WorkspaceRoots } from '../../../src/core/workspace/workspace-roots.js';

describe('declared paths', () => {
  test('a declaration is workspace-relative, cannot go up or exclude, and names something', () => {
    assert.equal(declarationProblem(['src/**', 'docs/api.md', './README.md']), undefined);
    assert.match(declarationProblem([]) ?? '', /at least one/);
    assert.match(declarationProblem(['  ']) ?? '', /empty/);
    for (const bad of ['/etc/**', '~/x', 'C:\\x', 'src/../../x', '..', 'a\\..\\b']) assert.match(declarationProblem([bad]) ?? '', /absolute|go up/, bad);
    assert.match(declarationProblem(['!src/keep.ts']) ?? '', /cannot exclude/);
  });

  test('overlap is judged from the literal directories: disjoint folders run side by side, anything unanchored meets all', () => {
    const meet = (a: string[], b: string[]) => declarationsOverlap(a, b);
    assert.equal(meet(['src/a/**'], ['src/b/**']), false);
    assert.equal(meet(['src/a/*.ts'], ['src/b.ts']), false);
    assert.equal(meet(['src/a/**'], ['src/a/one.ts']), true);
    assert.equal(meet(['src/**'], ['src/deep/x.ts']), true);
    assert.equal(meet(['src/a'], ['src/a/one.ts']), true, 'a folder holds its files');
    assert.equal(meet(['./src/a/x'], ['src/a/x']), true);
    assert.equal(meet(['*.md'], ['docs/x.md']), true, 'no slash: any depth');
    assert.equal(meet(['docs/'], ['src/docs/x']), true, 'a trailing slash alone still matches at any depth');
    assert.equal(meet(['**/x.ts'], ['src/a/**']), true);
    assert.equal(meet(['src/{a,b}/**'], ['src/c/**']), true, 'braces are wildcards: conservative');
    assert.equal(meet(['src/a/**', 'lib/**'], ['test/**', 'lib/x.ts']), true);
    assert.equal(declarationsOverlap('everything', ['x/y']), true);
  });
});

describe('an edit within the declared paths', () => {
  let root: string;
  let outside: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'smith-scope-'));
    outside = mkdtempSync(join(tmpdir(), 'smith-scope-out-'));
    mkdirSync(join(root, 'src/auth'), { recursive: true });
    symlinkSync(outside, join(root, 'src/auth/out'));
    symlinkSync(join(root, 'src/auth'), join(root, 'auth-link'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  test('is judged where the path really leads: `..`, absolute paths and links count as their target', () => {
    const scope = { patterns: ['src/auth/**'], owner: 'sub-agent 1' };
    const place = { cwd: root };
    const allowed = (path: string) => editScopeRefusal(scope, path, place) === undefined;
    assert.ok(allowed('src/auth/login.ts'));
    assert.ok(allowed('src/auth/new/deep.ts'), 'a file not yet there');
    assert.ok(allowed(join(root, 'src/auth/login.ts')), 'absolute, inside');
    assert.ok(allowed('src/x/../auth/login.ts'));
    assert.ok(allowed('auth-link/login.ts'), 'a link into the declared folder leads there');
    assert.ok(!allowed('src/other.ts'));
    assert.ok(!allowed('src/auth/../other.ts'));
    assert.ok(!allowed('src/auth/out/file.txt'), 'a link out of the workspace');
    assert.ok(!allowed(join(outside, 'file.txt')));
    assert.ok(!allowed('../elsewhere/src/auth/x.ts'));
    assert.match(editScopeRefusal(scope, 'src/other.ts', place) ?? '', /sub-agent 1.*src\/auth\/\*\*.*"src\/other\.ts"/);
  });

  test("in a multi-root workspace another folder's files are named `<folder>/…`", () => {
    const api = mkdtempSync(join(tmpdir(), 'api-'));
    try {
      const workspace = WorkspaceRoots.open(root, [{ path: api, name: 'api' }]);
      const scope = { patterns: ['api/src/**'], owner: 'sub-agent 2' };
      assert.equal(editScopeRefusal(scope, 'api/src/x.ts', { cwd: root, workspace }), undefined);
      assert.equal(editScopeRefusal(scope, join(api, 'src/x.ts'), { cwd: root, workspace }), undefined);
      assert.ok(editScopeRefusal(scope, 'src/api/src/x.ts', { cwd: root, workspace }));
    } finally {
      rmSync(api, { recursive: true, force: true });
    }
  });
});
