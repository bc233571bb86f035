// Where the real-workbench toolchain (Node 24, code-server, Chromium) lives, and the marker that
// says a complete install is there. The cache sits outside the repository by default: CI clones
// the repository afresh for every run, and a 600 MB code-server install must survive that.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The code-server release whose VS Code build the tests run against (its engines.node is 24). */
export const CODE_SERVER_VERSION = '4.139.1';
/** Node major that code-server's postinstall insists on. */
export const NODE_MAJOR = '24';
/** Debian's Chromium; playwright-core drives it (playwright cannot download browsers here). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The repository root (this file is scripts/workbench/workbench-cache.mjs). */
export const REPO_ROOT = resolve(new URL('../..', import.meta.url).pathname);

/** Root of the cache; SMITH_WORKBENCH_CACHE overrides the per-user default. */
export function workbenchCacheDir() {
  if (process.env.SMITH_WORKBENCH_CACHE) return resolve(process.env.SMITH_WORKBENCH_CACHE);
  const xdgCache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(xdgCache, 'smith', 'workbench');
}

/** Paths inside the cache, keyed by version so an upgrade installs beside the old one. */
export function cachePaths(cacheDir = workbenchCacheDir()) {
  const nodeDir = join(cacheDir, `node${NODE_MAJOR}`);
  const codeServerDir = join(cacheDir, `code-server-${CODE_SERVER_VERSION}`);
  return {
    cacheDir,
    nodeDir,
    node: join(nodeDir, 'bin', 'node'),
    codeServerDir,
    codeServerPackage: join(codeServerDir, 'node_modules', 'code-server'),
    codeServerEntry: join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    marker: join(cacheDir, `ready-code-server-${CODE_SERVER_VERSION}-node${NODE_MAJOR}.json`),
  };
}

/** The marker's content when a complete install is present and its files still exist, else null. */
export function readWorkbenchMarker(cacheDir = workbenchCacheDir()) {
  const { marker } = cachePaths(cacheDir);
  if (!existsSync(marker)) return null;
  let data;
  try {
    data = JSON.parse(readFileSync(marker, 'utf8'));
  } catch {
    return null;
  }
  const files = [data.node, data.codeServerEntry, data.chromium];
  return files.every((file) => typeof file === 'string' && existsSync(file)) ? data : null;
}

/** Like readWorkbenchMarker, but throws an error that says how to install. */
export function requireWorkbench(cacheDir = workbenchCacheDir()) {
  const found = readWorkbenchMarker(cacheDir);
  if (found) return found;
  throw new Error(
    `The real-workbench toolchain is not installed in ${cacheDir}. ` +
      'Run `node scripts/workbench/ensure-workbench.mjs` first (it installs Node 24, code-server and Chromium).',
  );
}
