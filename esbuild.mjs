// Bundles the extension, the CLI and the chat webview. Type-checking is separate (`npm run typecheck`).
import * as esbuild from 'esbuild';
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildWebview } from './webview-ui/build.mjs';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Shared options for the Node bundles (extension host and CLI). */
const nodeBundle = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  sourcesContent: false,
  logLevel: 'warning',
  // playwright-core (browser_action) cannot be bundled: it reads its own files at run time. A copy
  // ships beside the bundles (copyPlaywrightCore) and is loaded on the first browser launch.
  external: ['vscode', 'playwright-core'],
  define: { SMITH_VERSION: JSON.stringify(version) },
};

const builds = [
  {
    ...nodeBundle,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    // When the bundle started loading, so the reported activation time includes loading the code.
    banner: { js: 'globalThis.__smithLoadStart = performance.now();' },
  },
  {
    ...nodeBundle,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    // A small entry that answers --help and --version; the rest of the CLI is the next bundle,
    // loaded at run time with import('./cli-main.js'), so quick commands never compile it.
    external: [...nodeBundle.external, './cli-main.js'],
    // That import() becomes require(): Node's ESM loader would first scan the whole CommonJS
    // bundle for its export names, which costs about as much again as compiling it.
    supported: { 'dynamic-import': false },
  },
  {
    ...nodeBundle,
    entryPoints: ['src/cli/cli-main.ts'],
    outfile: 'dist/cli-main.js',
  },
];

/** Ships the tree-sitter runtime and grammars beside the bundles; src/core/code/wasm-locator.ts finds them there. */
function copyWasmFiles() {
  const files = JSON.parse(readFileSync(new URL('./src/core/code/wasm-files.json', import.meta.url), 'utf8'));
  mkdirSync('dist/wasm', { recursive: true });
  for (const [name, from] of Object.entries(files)) copyFileSync(join('node_modules', from), join('dist/wasm', name));
}

/**
 * Ships playwright-core beside the bundles, where their require('playwright-core') finds it first
 * (esbuild cannot bundle it). Its trace viewer (lib/vite) is left out: browser_action never opens it.
 */
function copyPlaywrightCore() {
  const from = join('node_modules', 'playwright-core');
  const to = join('dist', 'node_modules', 'playwright-core');
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true, filter: (source) => !source.startsWith(join(from, 'lib', 'vite')) });
}

copyWasmFiles();
copyPlaywrightCore();
if (watch) {
  for (const options of builds) {
    const context = await esbuild.context(options);
    await context.watch();
  }
  await buildWebview({ production, watch: true, outdir: 'dist/webview' });
  console.log('[esbuild] watching for changes');
} else {
  await Promise.all([...builds.map((options) => esbuild.build(options)), buildWebview({ production, outdir: 'dist/webview' })]);
}
