// The module VS Code's extension host loads as `extensionTestsPath`: it runs the mocha suites
// inside the real workbench, and the promise it returns becomes the run's exit code.
// Bundled with mocha to out/test/integration/vscode/index.js by scripts/workbench/build-vscode-tests.mjs.
import Mocha from 'mocha';
import { format } from 'node:util';
import { MOCHA_LINE_MARKER } from './output-marker';

/**
 * Every suite file. They are required only after mocha has set up its BDD context, because
 * `describe` from 'mocha' needs it; the build fails if a *.suite.ts file is missing here.
 */
const suites: Array<() => unknown> = [() => require('./extension-activation.suite')];

/** Runs all suites; rejects when any test fails. */
export function run(): Promise<void> {
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(`${MOCHA_LINE_MARKER}${format(...args)}`);
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 30_000 });
  mocha.suite.emit('pre-require', globalThis, 'smith-vscode-suites', mocha);
  for (const load of suites) load();
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed in the workbench.`)) : resolve()));
  });
}
