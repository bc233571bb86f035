import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { workspaceFoldersSection } from '../../../src/core/prompt/workspace-folders-section.js';
import { fairShares } from '../../../src/core/workspace/root-listing.js';
import { loadWorkspaceIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { resolveWorkspacePath } from '../../../src/core/workspace/workspace-paths.js';
import { WorkspaceRootError, WorkspaceRoots } from '../../../src/core/workspace/workspace-roots.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

describe('multi-root workspaces: the boundary and how paths are named', () => {
  let box: TempWorkspace;
  let app: string;
  let lib: string;
  beforeEach(() => {
    // Three sibling folders: the primary root, a second root and a folder outside both.
    box = createTempWorkspace();
    box.write('app/src/main.ts', 'main');
    box.write('lib/src/util.ts', 'util');
    box.write('outside/secret.txt', 'secret');
    app = join(box.root, 'app');
    lib = join(box.root, 'lib');
  });
  afterEach(() => box.dispose());

  const open = () => WorkspaceRoots.open(app, [{ path: lib }]);

  test('plain relative paths resolve in the primary root; <folder>/… in the other; absolute paths in either are inside', () => {
    const ws = open();
    assert.equal(ws.isMultiRoot, true);
    assert.deepEqual(
      ws.all.map((r) => r.name),
      ['app', 'lib'],
    );
    const primary = ws.resolve('src/main.ts');
    assert.deepEqual([primary.absolute, primary.display, primary.insideWorkspace, primary.root?.name], [join(app, 'src/main.ts'), 'src/main.ts', true, 'app']);
    const other = ws.resolve('lib/src/util.ts');
    assert.deepEqual([other.absolute, other.display, other.insideWorkspace, other.root?.name], [join(lib, 'src/util.ts'), 'lib/src/util.ts', true, 'lib']);
    const absolute = ws.resolve(join(lib, 'src/util.ts'));
    assert.deepEqual([absolute.display, absolute.insideWorkspace], ['lib/src/util.ts', true]);
    assert.equal(ws.resolve('lib').display, 'lib', 'the folder itself');
    assert.equal(ws.resolve('.').display, '.');
    assert.equal(ws.resolve('lib/new/file.ts').display, 'lib/new/file.ts', 'a file not written yet');
    assert.equal(ws.resolve('lib\\src\\util.ts').absolute, join(lib, 'src/util.ts'), 'a backslash separates the folder name too');
  });

  test('../ escapes from each root land outside, however they are spelled', () => {
    const ws = open();
    for (const input of [
      '../outside/secret.txt',
      'lib/../outside/secret.txt',
      'lib/../../outside/secret.txt',
      'lib/src/../../outside/secret.txt',
      join(lib, '../outside/secret.txt'),
      'lib/..',
    ]) {
      const resolved = ws.resolve(input);
      assert.equal(resolved.insideWorkspace, false, input);
      assert.equal(resolved.root, undefined, input);
      assert.equal(resolved.display, resolved.absolute, `${input} is shown absolute`);
    }
    // From the second root, ../app is the primary root: inside, by where it lies.
    assert.deepEqual([ws.resolve('lib/../app/src/main.ts').display, ws.resolve('lib/../app/src/main.ts').insideWorkspace], ['src/main.ts', true]);
  });

  test('a symlink in the second root that points outside counts as outside', () => {
    symlinkSync(join(box.root, 'outside'), join(lib, 'escape'));
    const ws = open();
    const through = ws.resolve('lib/escape/secret.txt');
    assert.equal(through.insideWorkspace, false);
    assert.equal(through.absolute, join(box.root, 'outside/secret.txt'));
    assert.equal(ws.resolve('lib/escape/not-yet.txt').insideWorkspace, false, 'nor does a new file below it');
  });

  test('a folder whose name is also a top-level entry of the primary root is addressed by absolute path', () => {
    box.write('app/lib/local.ts', 'primary entry');
    const ws = open();
    const [, second] = ws.all;
    assert.equal(ws.isAddressable(second!), false);
    const named = ws.resolve('lib/local.ts');
    assert.deepEqual([named.absolute, named.display, named.root?.name], [join(app, 'lib/local.ts'), 'lib/local.ts', 'app'], 'the primary entry keeps the name');
    assert.equal(ws.resolve('lib/src/util.ts').insideWorkspace, true);
    assert.equal(ws.resolve('lib/src/util.ts').absolute, join(app, 'lib/src/util.ts'), 'not the second root');
    const absolute = ws.resolve(join(lib, 'src/util.ts'));
    assert.deepEqual(
      [absolute.display, absolute.insideWorkspace, absolute.root?.name],
      [join(lib, 'src/util.ts'), true, 'lib'],
      'shown by absolute path, still inside',
    );
    assert.equal(ws.prefixOf(second!), lib);
    assert.match(workspaceFoldersSection(ws), /addressed by its absolute path .*"lib" is also an entry of the primary folder/);

    // The name is judged on each call: once the entry is gone, lib/… reaches the folder again.
    rmSync(join(app, 'lib'), { recursive: true });
    assert.equal(ws.resolve('lib/src/util.ts').absolute, join(lib, 'src/util.ts'));
    assert.match(workspaceFoldersSection(ws), /folder "lib", addressed as lib\/path/);
  });

  test('two folders of one name are both addressed by absolute path; a given name replaces the base name', () => {
    box.write('other/lib/x.ts', 'x');
    const twin = join(box.root, 'other/lib');
    const ws = WorkspaceRoots.open(app, [{ path: lib }, { path: twin }]);
    assert.deepEqual(
      ws.others.map((r) => ws.isAddressable(r)),
      [false, false],
    );
    assert.equal(ws.resolve(join(twin, 'x.ts')).display, join(twin, 'x.ts'));
    assert.match(workspaceFoldersSection(ws), /names more than one folder/);
    const renamed = WorkspaceRoots.open(app, [{ path: lib }, { path: twin, name: 'Shared Lib' }]);
    assert.equal(renamed.resolve('Shared Lib/x.ts').absolute, join(twin, 'x.ts'));
    assert.equal(renamed.resolve(join(twin, 'x.ts')).display, 'Shared Lib/x.ts');
  });

  test('a folder that does not exist, or is a file, is a clear error; one named twice counts once', () => {
    const missing = join(box.root, 'gone');
    assert.throws(
      () => WorkspaceRoots.open(app, [{ path: missing }]),
      (error: unknown) => error instanceof WorkspaceRootError && error.message === `Workspace folder does not exist: ${missing}`,
    );
    const file = join(box.root, 'outside/secret.txt');
    assert.throws(() => WorkspaceRoots.open(app, [{ path: file }]), /Workspace folder is not a folder: .*secret\.txt/);
    assert.deepEqual(WorkspaceRoots.open(app, [{ path: lib }, { path: `${lib}/` }, { path: app }]).all.length, 2);
  });

  test('a single folder behaves as before: no section, no names', () => {
    const ws = WorkspaceRoots.single(app);
    assert.equal(ws.isMultiRoot, false);
    assert.equal(workspaceFoldersSection(ws), '');
    assert.equal(ws.resolve('lib/src/util.ts').absolute, join(app, 'lib/src/util.ts'));
    assert.equal(resolveWorkspacePath(app, join(lib, 'src/util.ts')).insideWorkspace, false);
  });

  test("each folder's .smithignore judges the paths inside it", async () => {
    box.write('app/.smithignore', 'private/\n');
    box.write('lib/.smithignore', '*.key\n');
    mkdirSync(join(app, 'private'));
    mkdirSync(join(lib, 'private'));
    const ignore = await loadWorkspaceIgnore(open());
    assert.equal(ignore.isIgnored(join(app, 'private')), true);
    assert.equal(ignore.isIgnored(join(lib, 'private')), false, "the primary's rules stop at its folder");
    assert.equal(ignore.isIgnored(join(lib, 'src/token.key')), true);
    assert.equal(ignore.isIgnored(join(app, 'src/token.key')), false);
    assert.equal(ignore.isIgnored(join(lib, '.smithignore')), true, 'each file fences itself off');
  });
});

describe('fairShares', () => {
  test('small folders are listed whole; the rest is split evenly; nothing is lost to rounding', () => {
    assert.deepEqual(fairShares([10, 500, 500], 200), [10, 95, 95]);
    assert.deepEqual(fairShares([3, 4], 200), [3, 4]);
    assert.deepEqual(fairShares([100, 100, 100], 200), [67, 67, 66]);
    assert.deepEqual(fairShares([0, 1], 0), [0, 0]);
  });
});
