// Bundles the chat panel for the webview: one IIFE script and one stylesheet, plus the
// codicon font next to them. Type-checking is separate (`npx tsc -p webview-ui`).
import * as esbuild from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { zodEnglishOnly } from '../scripts/zod-english-only.mjs';
import { withoutClassicZod } from '../scripts/zod-mini-only.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The panel is written against React's API (and typed with React's types) but runs on Preact's
 * compatibility layer, a fifth of react-dom's size. Every import of React, react-dom and the JSX
 * runtime (the panel's and its libraries', e.g. @tanstack/react-virtual) resolves to it.
 */
const reactToPreact = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-runtime',
};

/** Files copied verbatim next to the bundle: the codicon stylesheet references its font relatively. */
const staticFiles = [
  ['node_modules/@vscode/codicons/dist/codicon.css', 'codicon.css'],
  ['node_modules/@vscode/codicons/dist/codicon.ttf', 'codicon.ttf'],
];

/** The dev harness (a page that plays the extension host), used by tests and benchmarks. */
const harnessFiles = [
  ['webview-ui/dev/harness.html', 'harness.html'],
  ['webview-ui/dev/harness-theme.css', 'harness-theme.css'],
];

/**
 * Builds `webview.js` + `webview.css` (and the harness) into `outdir` (default `dist/webview`).
 * With `watch`, keeps rebuilding until `dispose()` is called.
 * @param {{ production?: boolean, watch?: boolean, outdir?: string, harness?: boolean }} [options]
 * @returns {Promise<{ outdir: string, dispose: () => Promise<void> }>}
 */
export async function buildWebview({ production = false, watch = false, outdir = join(root, 'dist', 'webview'), harness = true } = {}) {
  await mkdir(outdir, { recursive: true });
  const copies = harness ? [...staticFiles, ...harnessFiles] : staticFiles;
  await Promise.all(copies.map(([from, to]) => copyFile(join(root, from), join(outdir, to))));

  /** @type {import('esbuild').BuildOptions} */
  const common = {
    absWorkingDir: root,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    // VS Code 1.90 runs Electron 29 (Chromium 122).
    target: ['chrome122'],
    jsx: 'automatic',
    alias: reactToPreact,
    minify: production,
    sourcemap: production ? false : 'linked',
    sourcesContent: false,
    legalComments: production ? 'none' : 'inline',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
    outdir,
    entryNames: '[name]',
    plugins: [zodEnglishOnly(), withoutClassicZod()],
  };
  const builds = [{ ...common, entryPoints: { webview: 'webview-ui/src/main.tsx' } }];
  if (harness) builds.push({ ...common, entryPoints: { harness: 'webview-ui/dev/harness.ts' } });

  if (!watch) {
    await Promise.all(builds.map((options) => esbuild.build(options)));
    return { outdir, dispose: async () => {} };
  }
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
  return { outdir, dispose: async () => void (await Promise.all(contexts.map((context) => context.dispose()))) };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const production = process.argv.includes('--production');
  const watch = process.argv.includes('--watch');
  const { outdir } = await buildWebview({ production, watch });
  console.log(watch ? `[webview] watching, writing to ${outdir}` : `[webview] built into ${outdir}`);
}
