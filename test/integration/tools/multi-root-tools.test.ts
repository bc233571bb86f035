// The file tools in a multi-root workspace, on real folders with the real ripgrep: every folder is
// inside, other folders are named `<folder>/…`, and each folder's ignore files hold in it.
import assert from 'node:assert/strict';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, before, beforeEach, describe, test } from 'node:test';
import { findExecutable } from '../../../src/core/search/find-executable.js';
import { APPROVE_ALL_POLICY } from '../../../src/core/log/approval-policy.js';
import { listFilesTool } from '../../../src/core/tools/list-files.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { searchFilesTool } from '../../../src/core/tools/search-files.js';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { writeToFileTool } from '../../../src/core/tools/write-to-file.js';
import { loadWorkspaceIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { WorkspaceRoots } from '../../../src/core/workspace/workspace-roots.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

function output(outcome: ToolOutcome): string {
  assert.equal(outcome.kind, 'result', `expected a result, got ${JSON.stringify(outcome)}`);
  return outcome.kind === 'result' ? outcome.output : '';
}

describe('file tools in a multi-root workspace', () => {
  let rg: string | undefined;
  let box: TempWorkspace;
  let app: string;
  let lib: string;
  let harness: ToolHarness;
  before(async () => {
    rg = await findExecutable('rg');
    assert.ok(rg, 'ripgrep (rg) is not on PATH; install it (apt-get install ripgrep).');
  });
  beforeEach(async () => {
    box = createTempWorkspace();
    box.write('app/src/main.ts', 'import { helper } from "lib";\nexport const NEEDLE = 1;\n');
    box.write('app/.gitignore', 'build/\n');
    box.write('app/build/out.js', 'NEEDLE in build output\n');
    box.write('lib/src/util.ts', 'export function helper() {\n  return "NEEDLE";\n}\n');
    box.write('lib/.gitignore', 'dist/\n');
    box.write('lib/dist/util.js', 'NEEDLE compiled\n');
    box.write('lib/.smithignore', 'secrets/\n');
    box.write('lib/secrets/token.txt', 'NEEDLE token\n');
    box.write('outside/secret.txt', 'NEEDLE outside\n');
    app = join(box.root, 'app');
    lib = join(box.root, 'lib');
    await openWorkspace(WorkspaceRoots.open(app, [{ path: lib }]));
  });
  afterEach(() => box.dispose());

  async function openWorkspace(workspace: WorkspaceRoots) {
    harness = new ToolHarness(app);
    harness.workspace = workspace;
    harness.ignore = await loadWorkspaceIgnore(workspace);
    harness.ripgrep = rg;
  }

  test('list_files on "." lists every folder, the other one under its name, each with its own ignore files', async () => {
    const text = output(await harness.run(listFilesTool, { path: '.', recursive: 'true' }));
    assert.deepEqual(text.split('\n'), ['src/', 'src/main.ts', '.gitignore', 'lib/', 'lib/src/', 'lib/src/util.ts', 'lib/.gitignore']);
    const top = output(await harness.run(listFilesTool, { path: '.' }));
    assert.deepEqual(top.split('\n'), ['src/', '.gitignore', 'lib/'], 'not recursive: the other folder is one entry');
    assert.equal(output(await harness.run(listFilesTool, { path: 'lib/src' })), 'lib/src/util.ts');
    assert.equal(output(await harness.run(listFilesTool, { path: join(lib, 'src') })), 'lib/src/util.ts', 'an absolute path inside the folder');
    assert.equal(harness.asked.length, 0, 'all inside the workspace: reads are auto-approved');
  });

  test('search_files on "." searches every folder with ripgrep; results carry the folder name; ignored files stay out', async () => {
    const text = output(await harness.run(searchFilesTool, { path: '.', regex: 'NEEDLE' }));
    assert.match(text, /^Found 2 results\./);
    assert.match(text, /\nsrc\/main\.ts\n/);
    assert.match(text, /\nlib\/src\/util\.ts\n/);
    assert.doesNotMatch(text, /build|dist|secrets|outside/);
    const inLib = output(await harness.run(searchFilesTool, { path: 'lib', regex: 'NEEDLE', file_pattern: '*.ts' }));
    assert.match(inLib, /^Found 1 result\.\n\nlib\/src\/util\.ts\n/);
  });

  test('read and write in the other folder by its name; its .smithignore fences its files', async () => {
    assert.match(output(await harness.run(readFileTool, { path: 'lib/src/util.ts' })), /return "NEEDLE"/);
    harness.policy = APPROVE_ALL_POLICY;
    output(await harness.run(writeToFileTool, { path: 'lib/src/new.ts', content: 'export const X = 1;\n' }));
    assert.equal(box.read('lib/src/new.ts'), 'export const X = 1;\n');
    assert.equal(existsSync(join(app, 'lib')), false, 'nothing was written in the primary folder');
    const blocked = await harness.run(readFileTool, { path: 'lib/secrets/token.txt' });
    assert.equal(blocked.kind, 'error');
    assert.match(blocked.kind === 'error' ? blocked.error : '', /Access to lib\/secrets\/token\.txt is blocked by the \.smithignore file/);
  });

  test('../ out of either folder and a symlink out of the second are outside: asked for, as before', async () => {
    symlinkSync(join(box.root, 'outside'), join(lib, 'escape'));
    for (const path of ['../outside/secret.txt', 'lib/../outside/secret.txt', 'lib/escape/secret.txt']) {
      harness.answers = [{ approved: false }];
      const outcome = await harness.run(readFileTool, { path });
      assert.equal(outcome.kind, 'rejected', path);
      assert.equal(harness.asked.at(-1)?.path, join(box.root, 'outside/secret.txt'), `${path} is shown by its real, absolute path`);
    }
    harness.answers = [{ approved: false }];
    assert.equal((await harness.run(listFilesTool, { path: 'lib/escape' })).kind, 'rejected');
  });

  test('a folder named like an entry of the primary folder: the entry keeps the name, the folder is shown by absolute path', async () => {
    box.write('app/lib/local.ts', 'the primary folder has a lib/ of its own\n');
    await openWorkspace(WorkspaceRoots.open(app, [{ path: lib }]));
    assert.match(output(await harness.run(readFileTool, { path: 'lib/local.ts' })), /a lib\/ of its own/);
    const listed = output(await harness.run(listFilesTool, { path: '.', recursive: 'true' })).split('\n');
    assert.ok(listed.includes('lib/local.ts'), listed.join('\n'));
    assert.ok(listed.includes(`${lib}/src/util.ts`), listed.join('\n'));
    const found = output(await harness.run(searchFilesTool, { path: '.', regex: 'return "NEEDLE"' }));
    assert.match(found, new RegExp(`\\n${lib.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/src/util\\.ts\\n`));
    assert.match(output(await harness.run(readFileTool, { path: `${lib}/src/util.ts` })), /helper/);
    assert.equal(harness.asked.length, 0, 'the second folder is still inside');
  });
});
