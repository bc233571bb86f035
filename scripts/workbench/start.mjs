#!/usr/bin/env node
// `npm start`: builds Smith and opens it in the real VS Code workbench (code-server on
// 127.0.0.1), then serves until Ctrl+C. By default Smith runs unpackaged from this repository
// (extensionDevelopmentPath), so `npm run watch` plus "Developer: Reload Window" picks up changes.
// Usage: node scripts/workbench/start.mjs [folder] [--vsix] [--port N]
//   folder   workspace to open (default: a playground folder in the workbench cache)
//   --vsix   package with vsce and install the .vsix instead of running from the repository
//   --port   fixed port (default: a free one)
// The shell's environment (e.g. SMITH_API_KEY) reaches the extension host.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { developmentPayload, startCodeServer } from './code-server.mjs';
import { ensureWorkbench } from './ensure-workbench.mjs';
import { packageVsix } from './package-vsix.mjs';
import { REPO_ROOT, workbenchCacheDir } from './workbench-cache.mjs';

const say = (line) => console.log(`[start] ${line}`);

function parseArgs(argv) {
  const options = { folder: undefined, vsix: false, port: undefined };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--vsix') options.vsix = true;
    else if (argv[i] === '--port') options.port = Number(argv[++i]);
    else if (!argv[i].startsWith('--')) options.folder = resolve(argv[i]);
    else throw new Error(`Unknown option ${argv[i]}`);
  }
  return options;
}

function playground() {
  const folder = join(workbenchCacheDir(), 'playground');
  if (!existsSync(folder)) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'README.md'), '# Smith playground\n\nA scratch workspace for `npm start`.\n');
  }
  return folder;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  await ensureWorkbench();
  say('building Smith (node esbuild.mjs)');
  execFileSync(process.execPath, [join(REPO_ROOT, 'esbuild.mjs')], { cwd: REPO_ROOT, stdio: 'inherit' });
  const vsix = options.vsix ? packageVsix() : undefined;
  const workspace = options.folder ?? playground();
  const server = await startCodeServer({ workspace, vsix, port: options.port, log: say });

  let stopping = false;
  const shutDown = async (signal) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping code-server (process group ${server.pgid})`);
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutDown('SIGINT'));
  process.on('SIGTERM', () => void shutDown('SIGTERM'));
  process.on('SIGHUP', () => void shutDown('SIGHUP'));

  const payload = vsix ? undefined : developmentPayload({ extensionDevelopmentPath: REPO_ROOT });
  say(`workspace: ${workspace}`);
  say(`Smith ${vsix ? `installed from ${vsix}` : `running from ${REPO_ROOT}`}`);
  console.log(`\n  Open ${server.workbenchUrl({ payload })}\n\n  Ctrl+C stops it.\n`);

  const exit = await server.exited;
  if (!stopping) {
    console.error(`[start] code-server exited unexpectedly (${JSON.stringify(exit)}):\n${server.logTail(30)}`);
    await server.stop({ keepRunDir: true });
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(`[start] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
