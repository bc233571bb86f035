// @-mentions and their completions across the folders of a multi-root workspace, on real folders.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { MentionSuggestions } from '../../../src/core/context/mention-completions.js';
import { expandMentions } from '../../../src/core/context/mentions.js';
import { loadWorkspaceIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { WorkspaceRoots } from '../../../src/core/workspace/workspace-roots.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

describe('@-mentions in a multi-root workspace', () => {
  let box: TempWorkspace;
  let app: string;
  let lib: string;
  let workspace: WorkspaceRoots;
  beforeEach(() => {
    box = createTempWorkspace('smith-roots-');
    box.write('app/src/main.ts', 'main\n');
    box.write('lib/src/util.ts', 'export const util = 1;\n');
    box.write('lib/docs/guide.md', '# Guide\n');
    box.write('lib/.gitignore', 'generated/\n');
    box.write('lib/generated/big.ts', 'generated\n');
    box.write('lib/.smithignore', '*.pem\n');
    box.write('lib/server.pem', 'key\n');
    box.write('outside/secret.txt', 'secret\n');
    app = join(box.root, 'app');
    lib = join(box.root, 'lib');
    workspace = WorkspaceRoots.open(app, [{ path: lib }]);
  });
  afterEach(() => box.dispose());

  const expand = async (text: string) => expandMentions(text, { cwd: app, workspace, ignore: await loadWorkspaceIgnore(workspace) });

  test('files and folders of the other folder attach by its name or by absolute path', async () => {
    const expanded = await expand(`Use @lib/src/util.ts, @lib/docs/ and @${join(lib, 'docs/guide.md')} in @src/main.ts`);
    assert.deepEqual(expanded.problems, []);
    assert.deepEqual(
      expanded.attachments.map((a) => [a.kind, a.ref]),
      [
        ['file', 'lib/src/util.ts'],
        ['folder', 'lib/docs/'],
        ['file', join(lib, 'docs/guide.md')],
        ['file', 'src/main.ts'],
      ],
    );
    assert.match(expanded.context, /<file path="lib\/src\/util\.ts">\nexport const util = 1;/);
    assert.match(expanded.context, /<folder path="lib\/docs\/">\nlib\/docs\/guide\.md\n<\/folder>/, "the folder's listing names its files as the tools do");
  });

  test("escapes, a symlink out of the second folder and that folder's .smithignore are refused with the reason", async () => {
    symlinkSync(join(box.root, 'outside'), join(lib, 'escape'));
    const expanded = await expand('See @lib/../outside/secret.txt, @lib/escape/secret.txt, @../outside/secret.txt and @lib/server.pem');
    assert.deepEqual(expanded.attachments, []);
    assert.deepEqual(expanded.problems, [
      '@lib/../outside/secret.txt is outside the workspace and was not attached.',
      '@lib/escape/secret.txt is outside the workspace and was not attached.',
      '@../outside/secret.txt is outside the workspace and was not attached.',
      '@lib/server.pem is excluded by .smithignore and was not attached.',
    ]);
  });

  test('completions offer the files of every folder as they are named, ignored ones left out', async () => {
    const suggestions = new MentionSuggestions();
    const util = await suggestions.suggest(workspace, 'util');
    assert.equal(util[0]?.value, 'lib/src/util.ts');
    const all = (await suggestions.suggest(workspace, '')).map((s) => s.value);
    for (const path of ['src/main.ts', 'lib/', 'lib/src/util.ts', 'lib/docs/guide.md']) assert.ok(all.includes(path), `${path} in ${all.join(', ')}`);
    assert.ok(!all.some((path) => path.includes('generated') || path.endsWith('.pem')), all.join(', '));
    assert.ok(!(await new MentionSuggestions().suggest(app, 'util')).some((s) => s.value.includes('util')), 'one folder alone knows nothing of the other');
  });
});
