// `smith --add-dir DIR`: more folders in the workspace, against the scripted model server.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { allText, systemPromptOf, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

describe('smith CLI: --add-dir', () => {
  const fx = useAgentFixture();
  let extra: TempWorkspace;
  let lib: string;
  beforeEach(() => {
    extra = createTempWorkspace('smith-extra-');
    lib = join(extra.root, 'shared-lib');
    mkdirSync(join(lib, 'src'), { recursive: true });
    writeFileSync(join(lib, 'src/util.ts'), 'export const SHARED = "from the second folder";\n');
    writeFileSync(join(extra.root, 'secret.txt'), 'not in the workspace\n');
  });
  afterEach(() => extra.dispose());
  const done = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

  test('the folder is named in the prompt and listed; the model reads and searches it by name; a mention attaches from it', async () => {
    fx.ws.write('src/main.ts', 'import { SHARED } from "shared-lib";\n');
    fx.server.enqueue({ text: '<read_file>\n<path>shared-lib/src/util.ts</path>\n</read_file>' });
    fx.server.enqueue({ text: '<search_files>\n<path>.</path>\n<regex>SHARED</regex>\n</search_files>' });
    fx.server.enqueue({ text: '<write_to_file>\n<path>shared-lib/src/added.ts</path>\n<content>export const ADDED = 1;\n</content>\n</write_to_file>' });
    fx.server.enqueue(done);
    const run = await runCli({ args: [...fx.cliArgs(), '--add-dir', lib, '--yes', 'Look at @shared-lib/src/util.ts'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /attached: @shared-lib\/src\/util\.ts/);

    const first = fx.server.requestAt(0);
    const prompt = systemPromptOf(first);
    assert.match(prompt, /# Workspace folders/);
    assert.ok(prompt.includes(`- ${fx.ws.root}: the primary folder`), prompt);
    assert.ok(prompt.includes(`- ${lib}: folder "shared-lib", addressed as shared-lib/path`), prompt);
    const sent = allText(first);
    assert.match(sent, /<file path="shared-lib\/src\/util\.ts">\nexport const SHARED/);
    assert.match(sent, /# Workspace files[^\n]*\nsrc\/\nsrc\/main\.ts\nshared-lib\/\nshared-lib\/src\/\nshared-lib\/src\/util\.ts/);

    assert.match(allText(fx.server.requestAt(1)), /from the second folder/);
    const searched = allText(fx.server.requestAt(2));
    assert.match(searched, /src\/main\.ts/);
    assert.match(searched, /shared-lib\/src\/util\.ts/);
    assert.equal(extra.read('shared-lib/src/added.ts'), 'export const ADDED = 1;\n', '--yes approves edits in every folder');
  });

  test('a path that escapes the added folder stays outside: --yes does not approve it', async () => {
    fx.server.enqueue({ text: '<read_file>\n<path>shared-lib/../secret.txt</path>\n</read_file>' });
    fx.server.enqueue(done);
    const run = await runCli({ args: [...fx.cliArgs(), '--add-dir', lib, '--yes', 'Read it'], stdin: 'n\n' });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stderr.includes(join(extra.root, 'secret.txt')), `the approval names the real path:\n${run.stderr}`);
    assert.doesNotMatch(allText(fx.server.requestAt(1)), /not in the workspace/);
  });

  test('a folder that does not exist is a usage error before anything starts', async () => {
    const missing = join(extra.root, 'gone');
    rmSync(missing, { force: true, recursive: true });
    const run = await runCli({ args: [...fx.cliArgs(), '--add-dir', missing, 'Do it'] });
    assert.equal(run.code, 2);
    assert.match(run.stderr, new RegExp(`smith: --add-dir: Workspace folder does not exist: ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.equal(fx.server.requests.length, 0);
  });

  test('mcp-serve serves one folder and says so rather than ignoring --add-dir', async () => {
    const run = await runCli({ args: ['mcp-serve', '--cwd', fx.ws.root, '--add-dir', lib, '--storage', fx.storage] });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /smith: mcp-serve serves one folder \(--cwd\); --add-dir is for tasks smith runs itself/);
  });
});
