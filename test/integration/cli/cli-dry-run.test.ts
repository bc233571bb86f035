// --dry-run: the task's edits come out as one patch that `git apply` takes; nothing is written.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

const edits = [
  { text: '<read_file>\n<path>src/a.ts</path>\n</read_file>' },
  {
    text: '<replace_in_file>\n<path>src/a.ts</path>\n<diff>\n------- SEARCH\nexport const a = 1;\n=======\nexport const a = 2;\n+++++++ REPLACE\n</diff>\n</replace_in_file>',
  },
  { text: '<write_to_file>\n<path>src/b.ts</path>\n<content>\nexport const b = 1;\n</content>\n</write_to_file>' },
  { text: '<execute_command>\n<command>npm test</command>\n<requires_approval>false</requires_approval>\n</execute_command>' },
  { text: '<read_file>\n<path>src/a.ts</path>\n</read_file>' },
  { text: '<attempt_completion>\n<result>Bumped a, added b.</result>\n</attempt_completion>' },
];

describe('smith CLI: --dry-run', () => {
  const fx = useAgentFixture();

  test('edits become a patch on stdout that git apply takes; files are untouched; commands are refused', async () => {
    fx.ws.write('src/a.ts', 'export const a = 1;\n');
    fx.server.enqueue(...edits);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--max-iterations', '10', '--dry-run', 'Bump a and add b'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.ws.read('src/a.ts'), 'export const a = 1;\n', 'nothing written');
    assert.equal(existsSync(join(fx.ws.root, 'src/b.ts')), false);
    assert.match(run.stderr, /Dry run: no file was written/);
    assert.match(lastUserText(fx.server.requestAt(4)), /Commands are not run in a dry run/);
    assert.match(lastUserText(fx.server.requestAt(5)), /1 \| export const a = 2;/, "later reads see the dry run's own edits");
    const patchFile = join(fx.storage, 'changes.patch');
    writeFileSync(patchFile, run.stdout.slice(run.stdout.indexOf('diff --git')));
    execFileSync('git', ['apply', patchFile], { cwd: fx.ws.root });
    assert.equal(fx.ws.read('src/a.ts'), 'export const a = 2;\n');
    assert.equal(fx.ws.read('src/b.ts'), 'export const b = 1;\n');
  });

  test('with --output json the patch goes to --patch-file; without one it is a usage error', async () => {
    fx.ws.write('src/a.ts', 'export const a = 1;\n');
    fx.server.enqueue(...edits);
    const patchFile = join(fx.storage, 'out.patch');
    const run = await runCli({
      args: [...fx.cliArgs(), '--yes', '--max-iterations', '10', '--dry-run', '--patch-file', patchFile, '--output', 'json', 'Bump a and add b'],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).result, 'Bumped a, added b.');
    assert.match(
      readFileSync(patchFile, 'utf8'),
      /^diff --git a\/src\/a\.ts b\/src\/a\.ts\n--- a\/src\/a\.ts\n\+\+\+ b\/src\/a\.ts\n@@ -1,1 \+1,1 @@\n-export const a = 1;\n\+export const a = 2;/,
    );
    const bad = await runCli({ args: [...fx.cliArgs(), '--dry-run', '--output', 'json', 'x'] });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--dry-run with --output json needs --patch-file FILE/);
  });
});
