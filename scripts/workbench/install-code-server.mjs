// code-server from npm, installed with Node 24 into the cache. Its postinstall runs
// `npm install` inside lib/vscode, and node-gyp compiles VS Code's native modules there
// (prebuilt downloads fail offline and it falls back to compiling), so the install is only
// complete when those .node files exist: npm reporting success is not enough.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { cleanChildEnv } from './child-env.mjs';

/**
 * Native modules that only code-server's postinstall produces (node-gyp builds them; node-pty and
 * @parcel/watcher ship prebuilds, so their presence proves nothing). Relative to lib/vscode/node_modules.
 */
const COMPILED_BY_POSTINSTALL = ['kerberos', '@vscode/spdlog', '@vscode/native-watchdog', '@vscode/sqlite3'];

function findNodeBinaries(dir) {
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.node')) : [];
}

/** Written last by installCodeServer: an interrupted install never counts as one. */
const COMPLETE_STAMP = '.smith-install-complete';

/** True when a finished install of code-server is in `dir`. */
export function codeServerInstalled(dir, codeServerPackage) {
  return existsSync(join(dir, COMPLETE_STAMP)) && missingNativeModules(codeServerPackage).length === 0;
}

/** Names of required native modules that have no compiled .node file; empty when complete. */
export function missingNativeModules(codeServerPackage) {
  const modules = join(codeServerPackage, 'lib', 'vscode', 'node_modules');
  return COMPILED_BY_POSTINSTALL.filter((name) => findNodeBinaries(join(modules, name, 'build', 'Release')).length === 0);
}

function tail(file, lines = 40) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Installs code-server@version into `dir` with Node from `nodeDir`. Output goes to `logFile`
 * (node-gyp is very noisy); a heartbeat line every 20 s shows it is still working.
 */
export async function installCodeServer({ version, dir, nodeDir, codeServerPackage, logFile, log }) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // A package.json makes `dir` the npm project, so neither --prefix nor the caller's project leaks in.
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'smith-workbench-code-server', private: true }, null, 2));
  mkdirSync(dirname(logFile), { recursive: true });
  const env = cleanChildEnv({
    // Node 24 first: npm then runs on it, and code-server's postinstall checks the user agent's Node major.
    PATH: `${join(nodeDir, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
    // node-gyp must build against Node 24's headers; the machine's npmrc may point at another Node's.
    npm_config_nodedir: nodeDir,
    // npm 11's install-script policy would let a future default (or strict-allow-scripts) skip
    // code-server's postinstall and the nested lib/vscode install it runs, leaving a server
    // without native modules. This one pinned package is the reason we install at all.
    npm_config_dangerously_allow_all_scripts: 'true',
    npm_config_strict_allow_scripts: 'false',
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  });
  const args = ['install', `code-server@${version}`, '--foreground-scripts', '--no-save'];
  log(`npm ${args.join(' ')} (log: ${logFile})`);
  const out = createWriteStream(logFile);
  const started = Date.now();
  const code = await new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    const heartbeat = setInterval(() => log(`  still installing code-server… ${Math.round((Date.now() - started) / 1000)} s`), 20_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearInterval(heartbeat);
      out.end();
      resolve(status);
    });
  });
  if (code !== 0) {
    throw new Error(`npm install code-server@${version} failed (exit ${code}). Last lines of ${logFile}:\n${tail(logFile)}`);
  }
  const missing = missingNativeModules(codeServerPackage);
  if (missing.length > 0) {
    throw new Error(
      `code-server installed but its native modules were not built (${missing.join(', ')}): ` +
        `its postinstall did not run or failed. Last lines of ${logFile}:\n${tail(logFile)}`,
    );
  }
  writeFileSync(join(dir, COMPLETE_STAMP), `${new Date().toISOString()}\n`);
}
