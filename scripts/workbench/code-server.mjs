// Starts code-server (the real VS Code workbench, served to a browser) for one test run or one
// `npm start`: its own port, user-data and extensions dirs, settings, and process group.
import { execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { cleanChildEnv } from './child-env.mjs';
import { requireWorkbench } from './workbench-cache.mjs';

const execFileAsync = promisify(execFile);

/** User settings that keep an offline test workbench quiet and predictable. */
export const QUIET_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // The gallery (open-vsx.org) is unreachable offline; do not keep asking it.
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'workbench.enableExperiments': false,
};

/** Flags from notes/real-vscode-offline.md; each one removes a prompt, a network call or a leak. */
const SERVER_FLAGS = [
  '--auth',
  'none',
  '--disable-telemetry',
  '--disable-update-check',
  '--disable-workspace-trust',
  '--disable-getting-started-override',
  // Without it an extension host lingers for hours after its browser tab is gone.
  '--reconnection-grace-time',
  '5',
  // Lets the page call codeAutomationLog/codeAutomationExit (extension tests report through them).
  '--vscode-option',
  'enable-smoke-test-driver',
];

async function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// code-server runs in its own session, so a Ctrl+C in the terminal never reaches it, and a
// test process that dies must not leave a server behind: kill every live group on the way out.
const liveGroups = new Set();
let exitHooksInstalled = false;

function installExitHooks() {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.on('exit', () => {
    for (const pgid of liveGroups) killGroup(pgid, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      for (const pgid of liveGroups) killGroup(pgid, 'SIGTERM');
      // Alone on this signal we replace Node's default, which is to exit.
      if (process.listenerCount(signal) === 1) process.exit(128 + constants.signals[signal]);
    });
  }
}

function tailOf(file, lines) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** The directories of one run; everything code-server writes goes below `runDir`. */
export function runLayout(runDir) {
  return {
    runDir,
    userDataDir: join(runDir, 'user-data'),
    extensionsDir: join(runDir, 'extensions'),
    tmpDir: join(runDir, 'tmp'),
    xdgConfigDir: join(runDir, 'xdg-config'),
    logFile: join(runDir, 'code-server.log'),
  };
}

function serverEnv(layout, extraEnv) {
  // TMPDIR holds VS Code's IPC sockets; keep it short (sun_path is 108 bytes) and per run.
  return cleanChildEnv({ ...extraEnv, TMPDIR: layout.tmpDir, XDG_CONFIG_HOME: layout.xdgConfigDir });
}

async function runCli(workbench, layout, env, args) {
  const dirs = ['--user-data-dir', layout.userDataDir, '--extensions-dir', layout.extensionsDir];
  const { stdout } = await execFileAsync(workbench.node, [workbench.codeServerEntry, ...dirs, ...args], { env, encoding: 'utf8' });
  return stdout;
}

class AddressInUseError extends Error {}

/** Spawns code-server in its own process group and waits for /healthz; stops it on failure. */
async function launch(workbench, layout, env, workspace, port, startTimeoutMs) {
  const logStart = existsSync(layout.logFile) ? statSync(layout.logFile).size : 0;
  const logFd = openSync(layout.logFile, 'a');
  const args = [
    workbench.codeServerEntry,
    '--bind-addr',
    `127.0.0.1:${port}`,
    ...SERVER_FLAGS,
    '--user-data-dir',
    layout.userDataDir,
    '--extensions-dir',
    layout.extensionsDir,
    workspace,
  ];
  // detached = setsid(): code-server, its extension hosts and file watchers share one process
  // group, and stop() signals the whole group (killing only the main pid leaves watchers behind).
  // A multi-root workspace is a .code-workspace file: code-server runs in the folder that holds it.
  const cwd = isWorkspaceFile(workspace) ? dirname(workspace) : workspace;
  const child = spawn(workbench.node, args, { cwd, env, detached: true, stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  const pgid = child.pid;
  let status = null;
  const exited = new Promise((resolveExit) => {
    child.on('exit', (code, signal) => {
      status = { code, signal };
      resolveExit(status);
    });
  });
  liveGroups.add(pgid);
  installExitHooks();

  let stopped = false;
  const stop = async ({ keepRunDir = false } = {}) => {
    if (stopped) return;
    stopped = true;
    killGroup(pgid, 'SIGTERM');
    for (let waited = 0; groupAlive(pgid) && waited < 5000; waited += 100) await sleep(100);
    if (groupAlive(pgid)) {
      killGroup(pgid, 'SIGKILL');
      for (let waited = 0; groupAlive(pgid) && waited < 3000; waited += 100) await sleep(100);
    }
    liveGroups.delete(pgid);
    if (!keepRunDir) rmSync(layout.runDir, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    // The log decides, not /healthz alone: when the port is taken, code-server logs EADDRINUSE
    // (and may even keep running), and /healthz is then answered by whoever holds the port.
    const output = readFileSync(layout.logFile, 'utf8').slice(logStart);
    if (output.includes('EADDRINUSE')) {
      await stop({ keepRunDir: true });
      throw new AddressInUseError(`127.0.0.1:${port} is taken: ${output.split('\n').find((line) => line.includes('EADDRINUSE'))}`);
    }
    if (status) {
      await stop({ keepRunDir: true });
      throw new Error(`code-server exited (${JSON.stringify(status)}) before it was ready. Log ${layout.logFile}:\n${tailOf(layout.logFile, 30)}`);
    }
    if (output.includes(`HTTP server listening on ${url}`)) {
      try {
        const response = await fetch(`${url}/healthz`);
        if (response.ok) return { url, port, pgid, stop, exited };
      } catch {
        // Listening, but not answering yet.
      }
    }
    if (Date.now() > deadline) {
      await stop({ keepRunDir: true });
      throw new Error(`code-server did not answer ${url}/healthz in time. Log ${layout.logFile}:\n${tailOf(layout.logFile, 30)}`);
    }
    await sleep(100);
  }
}

/**
 * Starts code-server on 127.0.0.1 and resolves once /healthz answers.
 * Options: workspace (folder, or .code-workspace file for a multi-root workspace, to open), runDir, vsix (one or more, installed first), env (for the server and
 * so the extension host), settings (merged over QUIET_SETTINGS), startTimeoutMs, log.
 */
export async function startCodeServer(options) {
  const workspace = resolve(options.workspace);
  const log = options.log ?? (() => {});
  const workbench = requireWorkbench();
  const runDir = options.runDir ? resolve(options.runDir) : mkdtempSync(join(tmpdir(), 'smith-workbench-'));
  const layout = runLayout(runDir);
  for (const dir of [layout.userDataDir, layout.extensionsDir, layout.tmpDir, layout.xdgConfigDir]) mkdirSync(dir, { recursive: true });
  mkdirSync(join(layout.userDataDir, 'User'), { recursive: true });
  writeFileSync(join(layout.userDataDir, 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...options.settings }, null, 2));
  const env = serverEnv(layout, options.env ?? {});

  for (const vsix of [options.vsix ?? []].flat()) {
    const started = Date.now();
    const output = await runCli(workbench, layout, env, ['--install-extension', resolve(vsix)]).catch((error) => String(error));
    if (!/successfully installed/i.test(output)) {
      rmSync(runDir, { recursive: true, force: true });
      throw new Error(`Installing ${vsix} into code-server failed:\n${output}`);
    }
    log(`installed ${vsix} in ${Date.now() - started} ms`);
  }

  // A free port can be taken between our probe and code-server's bind (parallel test files):
  // try another one unless the caller asked for this port.
  let launched;
  for (let attempt = 1; ; attempt++) {
    try {
      launched = await launch(workbench, layout, env, workspace, options.port ?? (await freePort()), options.startTimeoutMs ?? 60_000);
      break;
    } catch (error) {
      if (!(error instanceof AddressInUseError) || options.port || attempt === 3) throw error;
    }
  }
  const { url, port, pgid, stop, exited } = launched;
  log(`code-server ready at ${url} (pgid ${pgid}, run dir ${runDir})`);

  return {
    url,
    port,
    pgid,
    workspace,
    ...layout,
    /** The page that opens `folder` (default: the workspace), optionally with a dev/test payload. */
    workbenchUrl({ folder = workspace, payload } = {}) {
      const query = new URLSearchParams(isWorkspaceFile(folder) ? { workspace: folder } : { folder });
      if (payload) query.set('payload', JSON.stringify(payload));
      return `${url}/?${query.toString()}`;
    },
    /** Installed extension ids (publisher.name), as code-server's --list-extensions prints them. */
    async listExtensions() {
      const output = await runCli(workbench, layout, env, ['--list-extensions']);
      return output
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => /^[\w-]+\.[\w-]+$/.test(line));
    },
    logTail: (lines = 40) => tailOf(layout.logFile, lines),
    exited,
    stop,
  };
}

/**
 * The payload that runs an unpackaged extension (and optionally mocha tests) in the workbench.
 * One only: the workbench reads the payload into a Map, so a second `extensionDevelopmentPath`
 * replaces the first; install other extensions beside it (`vsix`).
 */
export function developmentPayload({ extensionDevelopmentPath, extensionTestsPath }) {
  // The remote authority of code-server's own files is literally "remote".
  const payload = [['extensionDevelopmentPath', `vscode-remote://remote${resolve(extensionDevelopmentPath)}`]];
  if (extensionTestsPath) payload.push(['extensionTestsPath', `vscode-remote://remote${resolve(extensionTestsPath)}`]);
  return payload;
}

/** A multi-root workspace's file, which the workbench opens with `?workspace=` rather than `?folder=`. */
function isWorkspaceFile(path) {
  return path.endsWith('.code-workspace');
}
