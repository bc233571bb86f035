#!/usr/bin/env node
// Bundles the extension-host test suites (test/integration/vscode/suite) into one CommonJS file
// that VS Code loads as extensionTestsPath. 'vscode' is provided by the extension host; mocha is
// bundled, so the host never has to require() mocha 12's ES module entry. The entry is generated:
// it hands runSuites (suite/index.ts) one lazy require per *.suite.ts file.
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './workbench-cache.mjs';

const suiteDir = join(REPO_ROOT, 'test/integration/vscode/suite');
const bundle = join(REPO_ROOT, 'out/test/integration/vscode/index.js');

const suites = readdirSync(suiteDir)
  .filter((name) => name.endsWith('.suite.ts'))
  .sort();
if (suites.length === 0) {
  console.error(`No *.suite.ts files in ${suiteDir}`);
  process.exit(1);
}
const loaders = suites.map((name) => `  () => require(${JSON.stringify(`./${name}`)}),`).join('\n');
const entry = `const { runSuites } = require('./index.ts');\nexports.run = () => runSuites([\n${loaders}\n]);\n`;

await esbuild.build({
  stdin: { contents: entry, resolveDir: suiteDir, sourcefile: 'generated-suites-entry.js', loader: 'js' },
  outfile: bundle,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  external: ['vscode'],
  logLevel: 'warning',
  // mocha's parallel mode resolves worker files at run time; the suites never use it.
  logOverride: { 'require-resolve-not-external': 'silent' },
});
console.log(`[workbench] built ${bundle} (${suites.length} suites: ${suites.map((name) => name.replace(/\.suite\.ts$/, '')).join(', ')})`);
