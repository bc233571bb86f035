// Bundles the extension, the CLI and the chat webview. Type-checking is separate (`npm run typecheck`).
import * as esbuild from 'esbuild';
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findLazyModules, LAZY_FOLDER, lazyPackages, leaveOut, loadLazily, thirdPartyOnly, withoutLazyPackages } from './scripts/lazy-modules.mjs';
import { coreBesideEntry, ENTRY_FILES, onlyOwnFiles } from './scripts/small-entry.mjs';
import { zodEnglishOnly } from './scripts/zod-english-only.mjs';
import { withoutClassicZod } from './scripts/zod-mini-only.mjs';
import { buildWebview } from './webview-ui/build.mjs';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const lazyModules = findLazyModules(fileURLToPath(new URL('./src', import.meta.url)));

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
  // import() becomes require(): Node's ESM loader would first scan a whole CommonJS bundle for its
  // export names, which costs about as much again as compiling it.
  supported: { 'dynamic-import': false },
  plugins: [loadLazily(lazyModules), withoutLazyPackages(lazyPackages(lazyModules)), zodEnglishOnly(), withoutClassicZod()],
};

const builds = [
  {
    ...nodeBundle,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    // When the bundle started loading, so the reported activation time includes loading the code.
    banner: { js: 'globalThis.__smithLoadStart = performance.now();' },
    // The small entry VS Code runs before it shows the chat; the core is the next bundle, loaded on first use.
    plugins: [...nodeBundle.plugins, coreBesideEntry(), onlyOwnFiles(ENTRY_FILES)],
  },
  {
    ...nodeBundle,
    entryPoints: ['src/host/vscode/extension-core.ts'],
    outfile: 'dist/extension-core.js',
  },
  {
    ...nodeBundle,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    // A small entry that answers --help and --version; the rest of the CLI is in the next bundles,
    // loaded at run time with import('./list-models-command.js') or import('./cli-main.js'), so
    // quick commands never compile the whole CLI.
    external: [...nodeBundle.external, './cli-main.js', './list-models-command.js'],
  },
  {
    ...nodeBundle,
    entryPoints: ['src/cli/list-models-command.ts'],
    outfile: 'dist/list-models-command.js',
  },
  {
    ...nodeBundle,
    entryPoints: ['src/cli/cli-main.ts'],
    outfile: 'dist/cli-main.js',
  },
  // The heavy third-party code, one bundle per src/**/lazy/ module, loaded on first use by both.
  {
    ...nodeBundle,
    entryPoints: lazyModules.map(({ file, name }) => ({ in: file, out: name })),
    outdir: join('dist', LAZY_FOLDER),
    plugins: [thirdPartyOnly(), zodEnglishOnly(), leaveOut()],
  },
];

/** Ships the tree-sitter runtime and grammars beside the bundles; src/core/code/wasm-locator.ts finds them there. */
function copyWasmFiles() {
  const files = JSON.parse(readFileSync(new URL('./src/core/code/wasm-files.json', import.meta.url), 'utf8'));
  mkdirSync('dist/wasm', { recursive: true });
  for (const [name, from] of Object.entries(files)) copyFileSync(join('node_modules', from), join('dist/wasm', name));
}

/**
 * What of playwright-core browser_action never uses, so the package leaves it out: the trace viewer
 * (lib/vite), its command line, dashboard and agent skills (cli.js, lib/tools), the browser install
 * scripts (bin; Smith drives an installed Chromium), the WebP codec (screenshots are PNG or JPEG)
 * and the type declarations.
 */
const PLAYWRIGHT_UNUSED = ['lib/vite', 'lib/tools', 'lib/webp_codec.wasm', 'cli.js', 'bin', 'types', 'index.d.ts'];

/**
 * Ships playwright-core beside the bundles, where their require('playwright-core') finds it first
 * (esbuild cannot bundle it), without PLAYWRIGHT_UNUSED.
 */
function copyPlaywrightCore() {
  const from = join('node_modules', 'playwright-core');
  const to = join('dist', 'node_modules', 'playwright-core');
  const unused = PLAYWRIGHT_UNUSED.map((path) => join(from, ...path.split('/')));
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true, filter: (source) => !unused.some((path) => source === path || source.startsWith(path + sep)) });
  if (production) minifyWhitespace(join(to, 'lib'));
}

/**
 * Strips the whitespace and comments (not the license comments) of playwright-core's readable
 * bundles: a fifth of their size. Names stay as they are, and a function whose source Playwright
 * sends to the page still parses there.
 */
function minifyWhitespace(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) minifyWhitespace(path);
    else if (entry.name.endsWith('.js'))
      writeFileSync(path, esbuild.transformSync(readFileSync(path, 'utf8'), { loader: 'js', minifyWhitespace: true, legalComments: 'inline' }).code);
  }
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
  // Every bundle finishes and reports its own errors before the build fails (esbuild does not print
  // the errors of a plugin's onEnd, such as a lazily loaded package found in a start-up bundle).
  const results = await Promise.allSettled([...builds.map((options) => esbuild.build(options)), buildWebview({ production, outdir: 'dist/webview' })]);
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  for (const failure of failures) console.error(Array.isArray(failure?.errors) ? failure.message : failure);
  if (failures.length > 0) process.exit(1);
}
