import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { build } from 'esbuild';
import { WASM_FILES } from '../../../src/core/code/wasm-locator.js';
import { EXPECTED_DEFINITION_NAMES } from '../../fixtures/code/expected-definitions.js';

const REPO = join(__dirname, '../../..');
const FIXTURES = join(REPO, 'test/fixtures/code');

// The real esbuild.mjs runs in a scratch copy of the project (src and node_modules linked), so
// this test never rewrites the dist/ that other tests run from.
describe('the built bundle ships and loads the wasm files', () => {
  let project: string;
  let app: string;
  before(() => {
    project = mkdtempSync(join(tmpdir(), 'smith-build-'));
    app = mkdtempSync(join(tmpdir(), 'smith-app-'));
    for (const linked of ['src', 'webview-ui', 'scripts', 'node_modules']) symlinkSync(join(REPO, linked), join(project, linked));
    for (const copied of ['esbuild.mjs', 'package.json']) copyFileSync(join(REPO, copied), join(project, copied));
    const result = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: project, encoding: 'utf8' });
    assert.equal(result.status, 0, `node esbuild.mjs failed:\n${result.stdout}${result.stderr}`);
  });
  after(() => {
    rmSync(project, { recursive: true, force: true });
    rmSync(app, { recursive: true, force: true });
  });

  test('node esbuild.mjs copies the runtime and every grammar into dist/wasm', () => {
    for (const [name, inPackage] of Object.entries(WASM_FILES)) {
      const shipped = join(project, 'dist/wasm', name);
      assert.ok(existsSync(shipped), `dist/wasm/${name} is missing`);
      assert.equal(statSync(shipped).size, statSync(join(REPO, 'node_modules', inPackage)).size, name);
    }
  });

  test('a bundle with only dist/wasm beside it (no node_modules anywhere above) parses all twelve languages', async () => {
    cpSync(join(project, 'dist/wasm'), join(app, 'wasm'), { recursive: true });
    await build({
      entryPoints: [join(FIXTURES, 'bundle-probe.ts')],
      outfile: join(app, 'probe.js'),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      logLevel: 'error',
    });
    const files = Object.keys(EXPECTED_DEFINITION_NAMES);
    const run = spawnSync(process.execPath, [join(app, 'probe.js'), FIXTURES, ...files], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout) as { located: Record<string, string>; names: Record<string, string[]> };
    for (const name of Object.keys(WASM_FILES)) assert.equal(report.located[name], join(app, 'wasm', name));
    assert.deepEqual(report.names, EXPECTED_DEFINITION_NAMES);
  });
});
