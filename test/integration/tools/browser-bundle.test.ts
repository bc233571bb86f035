// The built package carries its own playwright-core (esbuild.mjs copies it beside the bundles, as it
// cannot be bundled, trimmed and, in the production build, minified): from a copy of dist/ with no
// node_modules above it, Chromium starts, renders and takes a screenshot.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findBrowserExecutable } from '../../../src/core/browser/browser-settings.js';

const REPO = join(__dirname, '../../..');

describe('the built package ships playwright-core', () => {
  let project: string;
  let app: string;
  before(() => {
    // The real esbuild.mjs (production, as packaged) in a scratch copy of the project, so the dist/ other tests run from stays as it is.
    project = mkdtempSync(join(tmpdir(), 'smith-build-'));
    app = mkdtempSync(join(tmpdir(), 'smith-app-'));
    for (const linked of ['src', 'webview-ui', 'scripts', 'node_modules']) symlinkSync(join(REPO, linked), join(project, linked));
    for (const copied of ['esbuild.mjs', 'package.json']) copyFileSync(join(REPO, copied), join(project, copied));
    const result = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: project, encoding: 'utf8' });
    assert.equal(result.status, 0, `node esbuild.mjs failed:\n${result.stdout}${result.stderr}`);
  });
  after(() => {
    rmSync(project, { recursive: true, force: true });
    rmSync(app, { recursive: true, force: true });
  });

  test('a copy of dist/ alone starts Chromium with the playwright-core beside it', async () => {
    assert.ok(existsSync(join(project, 'dist/node_modules/playwright-core/package.json')));
    assert.equal(existsSync(join(project, 'dist/node_modules/playwright-core/lib/vite')), false, 'the trace viewer is left out');
    cpSync(join(project, 'dist'), join(app, 'dist'), { recursive: true });
    const chromium = await findBrowserExecutable({});
    assert.equal(typeof chromium, 'string', JSON.stringify(chromium));
    const probe = join(app, 'dist/probe.js');
    writeFileSync(
      probe,
      `const { chromium } = require('playwright-core');
(async () => {
  const browser = await chromium.launch({ executablePath: process.argv[2] });
  const page = await browser.newPage();
  await page.setContent('<p>rendered</p>');
  const png = await page.screenshot({ type: 'png' });
  const jpeg = await page.screenshot({ type: 'jpeg' });
  console.log(require.resolve('playwright-core'), await page.textContent('p'), png.subarray(1, 4).toString(), jpeg[0] === 0xff && jpeg[1] === 0xd8);
  await browser.close();
})();`,
    );
    const run = spawnSync(process.execPath, [probe, chromium as string], { cwd: app, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), `${join(app, 'dist/node_modules/playwright-core/index.js')} rendered PNG true`);
  });
});
