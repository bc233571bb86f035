// Smith's start-up bundles carry zod/mini, never classic zod: the build fails when classic zod gets
// into one (scripts/zod-mini-only.mjs), in every bundle the real esbuild.mjs makes; and a bundle of
// the schemas, with only zod/mini and zod's English messages in it, says what is wrong in English.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { build, type BuildFailure } from 'esbuild';
import { zodEnglishOnly } from '../../../scripts/zod-english-only.mjs';
import { withoutClassicZod } from '../../../scripts/zod-mini-only.mjs';

const REPO = join(__dirname, '../../..');

/** The start-up bundles and their entry points (the lazily loaded bundles are third-party code). */
const START_UP = [
  ['src/extension.ts', 'dist/extension.js'],
  ['src/host/vscode/extension-core.ts', 'dist/extension-core.js'],
  ['src/cli/main.ts', 'dist/cli.js'],
  ['src/cli/list-models-command.ts', 'dist/list-models-command.js'],
  ['src/cli/cli-main.ts', 'dist/cli-main.js'],
  ['webview-ui/src/main.tsx', 'the bundle of webview-ui/src/main.tsx'],
] as const;

describe('start-up bundles carry zod/mini, not classic zod', () => {
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'smith-zod-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  for (const spec of ['zod', 'zod/v4', 'zod/v3']) {
    test(`a bundle whose code imports '${spec}' fails to build, naming the file that brings it in`, async () => {
      const entry = join(scratch, `classic-${spec.replace('/', '-')}.ts`);
      writeFileSync(entry, `import { z } from '${spec}';\nconsole.log(z.string().parse('x'));\n`);
      const failure = await build({
        entryPoints: [entry],
        outfile: join(scratch, 'classic.js'),
        absWorkingDir: REPO,
        nodePaths: [join(REPO, 'node_modules')],
        bundle: true,
        write: false,
        platform: 'node',
        logLevel: 'silent',
        plugins: [withoutClassicZod()],
      }).then(
        () => undefined,
        (error: BuildFailure) => error,
      );
      assert.ok(failure, `a bundle with '${spec}' was built`);
      assert.equal(failure.errors.length, 1, failure.message);
      assert.match(
        failure.errors[0]?.text ?? '',
        /^classic zod \(.*node_modules\/zod\/(v4\/classic|v3)\/[^)]+\) ended up in .*classic\.js, imported through .*classic-[\w-]+\.ts: Smith's schemas use zod\/mini/,
      );
    });
  }

  test('the real build refuses classic zod in each start-up bundle', () => {
    const project = join(scratch, 'project');
    for (const copied of ['src', 'webview-ui']) cpSync(join(REPO, copied), join(project, copied), { recursive: true });
    for (const linked of ['scripts', 'node_modules']) symlinkSync(join(REPO, linked), join(project, linked));
    for (const copied of ['esbuild.mjs', 'package.json']) copyFileSync(join(REPO, copied), join(project, copied));
    for (const [entry] of START_UP) {
      const file = join(project, entry);
      writeFileSync(file, `import { z as classicZod } from 'zod';\nclassicZod.string().parse('x');\n${readFileSync(file, 'utf8')}`);
    }
    const result = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: project, encoding: 'utf8', timeout: 300_000 });
    assert.notEqual(result.status, 0, 'the build passed with classic zod in it');
    // Each bundle names a file of ours that brings classic zod in (cli-main.js reaches it first
    // through list-models-command.ts, which it also imports).
    for (const [, bundle] of START_UP) {
      assert.match(
        result.stderr,
        new RegExp(
          `classic zod \\(node_modules/zod/v4/classic/[^)]+\\) ended up in ${bundle.replace(/[.]/g, '\\.')}, imported through (src|webview-ui)/[\\w/.-]+: Smith's schemas use zod/mini`,
        ),
        `${bundle} was not refused:\n${result.stderr.slice(0, 4000)}`,
      );
    }
  });

  test('a bundle of the panel protocol has zod/mini and English only, and says what is wrong in English', async () => {
    const entry = join(scratch, 'protocol-probe.ts');
    writeFileSync(
      entry,
      `import { parseWebviewMessage } from ${JSON.stringify(join(REPO, 'src/shared/protocol.ts'))};
process.stdout.write(JSON.stringify([
  parseWebviewMessage({ type: 'ready', extra: 1 }),
  parseWebviewMessage({ type: 'editTodos', id: 'r1', taskId: 'nope/../x', items: [{ text: '', status: 'done' }] }),
  parseWebviewMessage({ type: 'updateQueued', id: 'r2', index: 1.5, was: 'a' }),
]));
`,
    );
    const outfile = join(scratch, 'protocol-probe.js');
    const { metafile } = await build({
      entryPoints: [entry],
      outfile,
      absWorkingDir: REPO,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      metafile: true,
      logLevel: 'silent',
      plugins: [zodEnglishOnly(), withoutClassicZod()],
    });
    const zodBytes = Object.entries(Object.values(metafile.outputs)[0]?.inputs ?? {}).filter(
      ([input, { bytesInOutput }]) => input.includes('node_modules/zod/') && bytesInOutput > 0,
    );
    assert.ok(
      zodBytes.some(([input]) => input.includes('node_modules/zod/v4/mini/')),
      zodBytes.map(([input]) => input).join('\n'),
    );
    const locales = zodBytes.map(([input]) => input).filter((input) => input.includes('/locales/'));
    assert.deepEqual(
      locales.map((input) => input.replace(/.*node_modules\/zod\//, '')),
      ['v4/locales/en.js'],
    );

    const run = spawnSync(process.execPath, [outfile], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), [
      { ok: false, error: 'Invalid "ready" message: Unrecognized key: "extra"' },
      {
        ok: false,
        error:
          'Invalid "editTodos" message: taskId: a task id cannot contain ".."; items.0.text: Too small: expected string to have >=1 characters; items.0.status: Invalid option: expected one of "pending"|"in_progress"|"completed"',
        id: 'r1',
      },
      { ok: false, error: 'Invalid "updateQueued" message: index: Invalid input: expected int, received number', id: 'r2' },
    ]);
  });
});
