// Runs the extension-host integration tests (out/test/integration/vscode/index.js) inside the
// real VS Code workbench: code-server serves it, Debian's Chromium opens it with Smith as the
// development extension, and mocha's result arrives through the smoke-test driver's
// codeAutomationExit. Exits with mocha's code; 1 with the logs when anything else goes wrong.
// Usage: node --import tsx test/integration/vscode/run-in-workbench.ts
// Env: SMITH_WORKBENCH_TIMEOUT_MS (default 1200000: a hang guard; the command-capture matrix alone takes minutes on a busy machine, and the whole run over ten), SMITH_WORKBENCH_VERBOSE=1 (also print the workbench's own log and browser console).
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import type { BrowserContext } from 'playwright-core';
import { launchChromium } from '../../../scripts/workbench/browser.mjs';
import { developmentPayload, startCodeServer, type CodeServer } from '../../../scripts/workbench/code-server.mjs';
import { REPO_ROOT } from '../../../scripts/workbench/workbench-cache.mjs';
import { MOCHA_LINE_MARKER } from './suite/output-marker';
import { packageLmTestExtension } from '../../helpers/lm-test-extension';

const TESTS_BUNDLE = join(REPO_ROOT, 'out/test/integration/vscode/index.js');
const EXTENSION_MAIN = join(REPO_ROOT, 'dist/extension.js');
const ARTIFACTS = join(REPO_ROOT, '.test-artifacts/vscode');
const timeoutMs = Number(process.env.SMITH_WORKBENCH_TIMEOUT_MS ?? 1_200_000);
const verbose = process.env.SMITH_WORKBENCH_VERBOSE === '1';

const say = (line: string) => console.log(`[run-in-workbench] ${line}`);

function createWorkspace(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'smith-vscode-ws-')));
  writeFileSync(join(root, 'README.md'), '# Workspace of the extension-host tests\n');
  return root;
}

async function main(): Promise<number> {
  for (const [file, how] of [
    [EXTENSION_MAIN, 'node esbuild.mjs'],
    [TESTS_BUNDLE, 'node scripts/workbench/build-vscode-tests.mjs'],
  ] as const) {
    if (!existsSync(file)) throw new Error(`${file} is missing; build it with \`${how}\`.`);
  }
  const started = Date.now();
  const workspace = createWorkspace();
  const browserConsole: string[] = [];
  const workbenchLog: string[] = [];
  let server: CodeServer | undefined;
  let browser: BrowserContext | undefined;
  let exitCode = 1;
  let failure: string | undefined;

  const cleanUp = async () => {
    await browser?.close().catch(() => {});
    await server?.stop({ keepRunDir: exitCode !== 0 });
    rmSync(workspace, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    say(`${signal}: stopping`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    // Installed beside Smith: it registers the scripted language models the vscode.lm suite uses.
    const vsix = packageLmTestExtension();
    server = await startCodeServer({ workspace, vsix, env: { SMITH_TEST_WORKSPACE: workspace }, log: say });
    browser = await launchChromium({ userDataDir: join(server.runDir, 'chromium') });
    const page = browser.pages()[0] ?? (await browser.newPage());
    let settle: (code: number) => void = () => {};
    const finished = new Promise<number>((resolve) => (settle = resolve));
    // Both must exist before the workbench loads: it looks them up once at startup.
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
      // Arguments arrive as console.log's: a format string first.
      const text = format(...(args as [unknown, ...unknown[]]));
      if (text.startsWith(MOCHA_LINE_MARKER)) {
        console.log(text.slice(MOCHA_LINE_MARKER.length));
        return;
      }
      workbenchLog.push(...text.split('\n').map((line) => `[workbench ${type}] ${line}`));
      if (verbose) console.log(`[workbench ${type}] ${text}`);
    });
    await page.exposeFunction('codeAutomationExit', (code: number) => settle(code));
    page.on('console', (message) => {
      const line = `[browser ${message.type()}] ${message.text()}`;
      browserConsole.push(line);
      if (verbose) console.log(line);
    });
    page.on('pageerror', (error) => browserConsole.push(`[browser pageerror] ${error.message}`));

    const payload = developmentPayload({ extensionDevelopmentPath: REPO_ROOT, extensionTestsPath: TESTS_BUNDLE });
    // Wide, as in test/helpers/workbench.ts: on a busy machine the first load alone can take longer than Playwright's 30 s default.
    await page.goto(server.workbenchUrl({ payload }), { timeout: 120_000 });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const outcome = await Promise.race([finished, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      const shot = join(ARTIFACTS, 'timeout.png');
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: shot }).catch(() => {});
      failure = `no result from the extension host within ${timeoutMs} ms (screenshot: ${shot})`;
    } else {
      exitCode = outcome;
      if (exitCode !== 0) failure = `mocha exited with ${exitCode}`;
    }
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }

  if (failure) {
    exitCode = exitCode === 0 ? 1 : exitCode;
    console.error(`[run-in-workbench] FAILED: ${failure}`);
    console.error(`--- last workbench log lines ---\n${workbenchLog.slice(-40).join('\n') || '(none)'}`);
    console.error(`--- last browser console lines ---\n${browserConsole.slice(-20).join('\n') || '(none)'}`);
    if (server)
      console.error(
        `--- code-server log (${server.logFile}) ---\n${server.logTail(30)}\nRun dir kept: ${server.runDir} (extension host logs under user-data/logs)`,
      );
  }
  await cleanUp();
  say(`${exitCode === 0 ? 'passed' : 'failed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[run-in-workbench] FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
