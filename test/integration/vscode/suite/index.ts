// Runs the extension-host suites inside the real workbench. build-vscode-tests.mjs bundles this
// with mocha and every *.suite.ts into out/test/integration/vscode/index.js, whose run() (what VS
// Code calls for `extensionTestsPath`) passes one loader per suite file to runSuites: a new suite
// is picked up by dropping a file here, without a shared list to edit.
import Mocha from 'mocha';
import { format } from 'node:util';
import { MOCHA_LINE_MARKER } from './output-marker';

/**
 * Runs the suites the loaders require; rejects when a test fails. The loaders run only after
 * mocha has set up its BDD context, which `describe` imported from 'mocha' needs.
 * SMITH_VSCODE_GREP (reaches the extension host from the runner's environment) selects tests.
 */
export function runSuites(loaders: ReadonlyArray<() => unknown>): Promise<void> {
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(`${MOCHA_LINE_MARKER}${format(...args)}`);
  // A hang guard per test, wide enough for a busy machine: the workbench's first diff editor or
  // terminal can take half a minute to open when the cores are shared.
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 90_000 });
  const grep = process.env.SMITH_VSCODE_GREP;
  if (grep) mocha.grep(grep);
  mocha.suite.emit('pre-require', globalThis, 'smith-vscode-suites', mocha);
  for (const load of loaders) load();
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      // A plain closing line that CI log readers understand whatever the runner.
      const { passes = 0, pending = 0 } = runner.stats ?? {};
      console.log(`${MOCHA_LINE_MARKER}vscode: ${passes} passed, ${failures} failed, ${pending} skipped`);
      if (failures > 0) reject(new Error(`${failures} test(s) failed in the workbench.`));
      else resolve();
    });
  });
}
