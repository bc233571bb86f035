// The extension's entry (dist/extension.js) is what VS Code loads and runs before it shows the
// chat view, so it must stay small: the view, the commands and the opening marks, nothing of the
// engine and no third-party package. Everything else is in dist/extension-core.js, loaded on first
// use (src/extension.ts). This check fails the build when an import pulls anything else in.
import { realpathSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { metafileCheck } from './metafile-check.mjs';

/** The only files the entry bundle may contain (relative to the repository, forward slashes). */
export const ENTRY_FILES = [
  'src/extension.ts',
  'src/host/vscode/chat-view-provider.ts',
  'src/host/vscode/contributed-ids.ts',
  'src/host/vscode/early-messages.ts',
  'src/host/vscode/opening-report.ts',
  'src/host/vscode/webview-html.ts',
  'src/shared/early-host-messages.ts',
];

/**
 * Fails the build when the bundle contains a file not in `allowed`.
 * @param {string[]} allowed
 * @returns {import('esbuild').Plugin}
 */
export function onlyOwnFiles(allowed) {
  // Real paths on both sides: esbuild names inputs by where links lead (src/ may be a link).
  const real = (path) => realpathSync(resolve(process.cwd(), path));
  return metafileCheck('only-own-files', (metafile) => {
    const expected = new Set(allowed.map(real));
    const extra = Object.keys(metafile.inputs)
      .filter((input) => !expected.has(real(input)))
      .map((input) => relative(process.cwd(), input).split('\\').join('/'));
    if (extra.length === 0) return undefined;
    return `The extension's entry must stay small, but it now contains ${extra.join(', ')}: reach it through the core (src/host/vscode/extension-core.ts), or add it to ENTRY_FILES in scripts/small-entry.mjs if it truly belongs to the entry.`;
  });
}

/** The core as the entry requires it in the sources, and the bundle beside the entry it is in dist/. */
const CORE_SOURCE = /\/host\/vscode\/extension-core\.js$/;
export const CORE_BUNDLE = './extension-core.js';

/**
 * The entry's require of the core (src/host/vscode/extension-core.ts) becomes a require of the
 * core's own bundle beside it, so the core stays out of the entry.
 * @returns {import('esbuild').Plugin}
 */
export function coreBesideEntry() {
  return {
    name: 'core-beside-entry',
    setup(build) {
      build.onResolve({ filter: CORE_SOURCE }, (args) => (args.kind === 'require-call' ? { path: CORE_BUNDLE, external: true } : undefined));
    },
  };
}
