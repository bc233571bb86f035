// What the .vsix ships, as vsce lists it from the built dist/ and .vscodeignore: every grammar the
// code names anywhere in src/, every bundle the start-up bundles require from dist/lazy/, and the
// parts of playwright-core that are loaded; none of the sources, tests or source maps. So trimming
// the package cannot drop a file the extension needs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';

const REPO = join(__dirname, '../../..');

/** Every .ts file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : name.endsWith('.ts') ? [full] : [];
  });
}

describe('the packaged extension', () => {
  let packaged: Set<string>;
  before(() => {
    const run = spawnSync(process.execPath, [join(REPO, 'node_modules/@vscode/vsce/vsce'), 'ls', '--no-dependencies'], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 300_000,
    });
    assert.equal(run.status, 0, run.stderr);
    packaged = new Set(run.stdout.split('\n').filter((line) => line !== ''));
  });

  test('ships every grammar wasm file the code names, and the tree-sitter runtime', () => {
    const named = new Set<string>();
    for (const file of sources(join(REPO, 'src'))) {
      for (const [name] of readFileSync(file, 'utf8').matchAll(/\b(?:web-)?tree-sitter(?:-[a-z0-9]+)*\.wasm\b/g)) named.add(name);
    }
    for (const [, name] of readFileSync(join(REPO, 'src/core/code/wasm-files.json'), 'utf8').matchAll(/"((?:web-)?tree-sitter[a-z0-9-]*\.wasm)":/g))
      named.add(name!);
    assert.ok(named.has('tree-sitter-bash.wasm') && named.has('tree-sitter-typescript.wasm') && named.has('web-tree-sitter.wasm'), [...named].join(', '));
    for (const name of named) assert.ok(packaged.has(`dist/wasm/${name}`), `dist/wasm/${name} is not in the package`);
  });

  test('ships every bundle the start-up bundles load at run time', () => {
    const loaded = new Set<string>();
    for (const bundle of ['dist/extension.js', 'dist/extension-core.js', 'dist/cli.js', 'dist/cli-main.js', 'dist/list-models-command.js']) {
      assert.ok(packaged.has(bundle), `${bundle} is not in the package`);
      for (const [, path] of readFileSync(join(REPO, bundle), 'utf8').matchAll(/require\("\.\/([^"]+\.js)"\)/g)) loaded.add(`dist/${path}`);
    }
    assert.ok(
      [...loaded].some((path) => path.startsWith('dist/lazy/')),
      `no lazily loaded bundle found: ${[...loaded].join(', ')}`,
    );
    for (const path of loaded) assert.ok(packaged.has(path), `${path} is required at run time but not in the package`);
  });

  test("ships playwright-core's runtime and none of the sources, tests or source maps", () => {
    for (const file of ['index.js', 'package.json', 'lib/bootstrap.js', 'lib/coreBundle.js', 'lib/utilsBundle.js', 'lib/serverRegistry.js']) {
      assert.ok(packaged.has(`dist/node_modules/playwright-core/${file}`), file);
    }
    for (const path of packaged) assert.doesNotMatch(path, /^(src|test|bench|webview-ui|scripts)\/|\.map$|\.d\.ts$/, path);
  });
});
