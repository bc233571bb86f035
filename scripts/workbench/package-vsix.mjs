#!/usr/bin/env node
// Packages Smith as a .vsix with vsce, offline. esbuild already bundles every dependency into
// dist/, so vsce must not run `npm list` (--no-dependencies). Packages what dist/ holds now:
// build first (`node esbuild.mjs --production` for a release-like package).
// Usage: node scripts/workbench/package-vsix.mjs [--out <file.vsix>]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './workbench-cache.mjs';

/** Where tests look for the packaged extension unless told otherwise. */
export const DEFAULT_VSIX_PATH = join(REPO_ROOT, 'out', 'vsix', 'smith.vsix');

/** vsce flags for what the manifest and repository lack, so vsce never stops to ask. */
function leniencyFlags() {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  const flags = [];
  if (!manifest.repository) flags.push('--allow-missing-repository');
  if (!readdirSync(REPO_ROOT).some((name) => /^LICENSE(\.md|\.txt)?$/i.test(name))) flags.push('--skip-license');
  // Without a repository URL vsce cannot rewrite README's relative links and refuses to package.
  if (!manifest.repository) flags.push('--no-rewrite-relative-links');
  // Until the repository has its own .vscodeignore, do not ship src/, test/, caches and artifacts.
  if (!existsSync(join(REPO_ROOT, '.vscodeignore')) && !manifest.files) {
    flags.push('--ignoreFile', join(REPO_ROOT, 'scripts', 'workbench', 'fallback.vscodeignore'));
  }
  return flags;
}

/** Runs vsce package and returns the .vsix path. */
export function packageVsix({ out = DEFAULT_VSIX_PATH } = {}) {
  const main = join(REPO_ROOT, 'dist', 'extension.js');
  if (!existsSync(main)) throw new Error(`${main} is missing; build first with \`node esbuild.mjs\`.`);
  const target = resolve(out);
  mkdirSync(dirname(target), { recursive: true });
  const vsce = join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const args = [vsce, 'package', '--no-dependencies', ...leniencyFlags(), '--out', target];
  execFileSync(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return target;
}

/**
 * Packages a test extension (plain JavaScript: no build, no dependencies) from its folder into
 * `out`, for the workbench tests to install beside the development extension.
 */
export function packageTestExtension({ root, out }) {
  const target = resolve(out);
  mkdirSync(dirname(target), { recursive: true });
  const vsce = join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const args = [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', target];
  execFileSync(process.execPath, args, { cwd: resolve(root), stdio: ['ignore', 'pipe', 'inherit'] });
  return target;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outIndex = process.argv.indexOf('--out');
  try {
    const started = Date.now();
    const file = packageVsix(outIndex > 0 ? { out: process.argv[outIndex + 1] } : {});
    console.log(`[workbench] packaged ${file} in ${Date.now() - started} ms`);
  } catch (error) {
    console.error(`[workbench] packaging failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
