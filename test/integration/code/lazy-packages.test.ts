// The heavy third-party packages stay out of the start-up bundles (scripts/lazy-modules.mjs): a
// start-up bundle that contains one fails to build, naming it, and so does a static import of a
// lazily loaded module; reached with require() inside a function it becomes a separate bundle.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { build, type BuildFailure } from 'esbuild';
import { findLazyModules, lazyPackages, loadLazily, withoutLazyPackages } from '../../../scripts/lazy-modules.mjs';

const REPO = join(__dirname, '../../..');

describe('lazily loaded packages stay out of the start-up bundles', () => {
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'smith-lazy-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  const modules = findLazyModules(join(REPO, 'src'));
  const bundle = (source: string) => {
    const entry = join(scratch, `entry-${Math.random().toString(36).slice(2)}.ts`);
    writeFileSync(entry, source);
    return build({
      entryPoints: [entry],
      outfile: join(scratch, 'out.js'),
      absWorkingDir: REPO,
      // The entry is outside the project: packages are looked up in the project's node_modules.
      nodePaths: [join(REPO, 'node_modules')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      logLevel: 'silent',
      plugins: [loadLazily(modules), withoutLazyPackages(lazyPackages(modules))],
    }).then(
      () => undefined,
      (error: BuildFailure) => error.errors.map((e) => e.text).join('\n'),
    );
  };

  test('the packages the lazy modules re-export are known', () => {
    assert.ok(lazyPackages(modules).includes('@anthropic-ai/sdk'), lazyPackages(modules).join(', '));
  });

  test('a static import of such a package fails the build, naming it', async () => {
    const failure = await bundle(`import Anthropic from '@anthropic-ai/sdk';\nconsole.log(Anthropic);\n`);
    assert.match(failure ?? '', /@anthropic-ai\/sdk ended up in a start-up bundle/);
  });

  test('a static import of a lazy module fails the build; require() inside a function is left to load it at run time', async () => {
    const lazy = join(REPO, 'src/core/providers/lazy/anthropic-sdk.js');
    const failure = await bundle(`import * as sdk from ${JSON.stringify(lazy)};\nconsole.log(sdk);\n`);
    assert.match(failure ?? '', /imports .*anthropic-sdk\.js statically/);
    assert.equal(await bundle(`export function load() { return require(${JSON.stringify(lazy)}); }\n`), undefined);
  });
});
