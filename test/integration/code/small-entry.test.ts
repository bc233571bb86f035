// The extension's entry stays small: its bundle may hold only the files ENTRY_FILES lists
// (scripts/small-entry.mjs), whether src/ is reached directly or through a link, and the real
// entry holds nothing else.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { build, type BuildFailure } from 'esbuild';
import { coreBesideEntry, ENTRY_FILES, onlyOwnFiles } from '../../../scripts/small-entry.mjs';

const REPO = join(__dirname, '../../..');

describe("the extension's small entry", () => {
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'smith-entry-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  const bundle = (entry: string, allowed: readonly string[], cwd = REPO) =>
    build({
      entryPoints: [entry],
      outfile: join(scratch, 'out.js'),
      absWorkingDir: cwd,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      logLevel: 'silent',
      external: ['vscode'],
      plugins: [coreBesideEntry(), onlyOwnFiles(allowed)],
    });

  test('the real entry holds only the listed files', async () => {
    const result = await bundle(join(REPO, 'src/extension.ts'), ENTRY_FILES);
    assert.deepEqual(result.errors, []);
  });

  test('an import of anything else fails the build, naming it', async () => {
    const entry = join(scratch, 'entry.ts');
    writeFileSync(
      entry,
      `import { CHAT_VIEW_ID } from ${JSON.stringify(join(REPO, 'src/host/vscode/contributed-ids.js'))};\nimport { TaskController } from ${JSON.stringify(join(REPO, 'src/panel/task-controller.js'))};\nconsole.log(CHAT_VIEW_ID, TaskController);\n`,
    );
    const failure = await bundle(entry, [entry, 'src/host/vscode/contributed-ids.ts']).then(
      () => undefined,
      (error: BuildFailure) => error,
    );
    assert.ok(failure, 'the build should have failed');
    const text = failure.errors.map((error) => error.text).join('\n');
    assert.match(text, /must stay small/);
    assert.match(text, /src\/panel\/task-controller\.ts/);
    assert.doesNotMatch(text, /contributed-ids/);
  });

  test('files reached through a linked src/ count as the listed ones', async () => {
    const project = join(scratch, 'project');
    symlinkSync(REPO, project);
    const result = await bundle(join(project, 'src/extension.ts'), ENTRY_FILES, project);
    assert.deepEqual(result.errors, []);
  });
});
