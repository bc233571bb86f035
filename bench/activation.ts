// Extension activation in the real workbench (code-server + Chromium): how long Smith's activate()
// takes, relative to how long the workbench itself took to become usable in the same run.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readWorkbenchMarker } from '../scripts/workbench/workbench-cache.mjs';
import { DEFAULT_VSIX_PATH } from '../scripts/workbench/package-vsix.mjs';
import { openWorkbench } from '../test/helpers/workbench.js';
import type { BenchOptions, BenchOutcome } from './report.js';

/** Polls until the file exists, or gives up after `timeoutMs`. */
async function waitForFile(path: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(path)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** Measures Smith's activation in the workbench, or says why it could not. */
export async function runActivationBench(options: BenchOptions): Promise<BenchOutcome> {
  const todo = (why: string): BenchOutcome => ({
    results: { activation_ms: null, activation_ratio: null, activation_note: why },
    rows: [{ bench: 'startup', metric: 'extension activation in the e2e workbench', value: 'n/a', target: '', status: 'TODO' }],
    notes: [`activation: ${why}`],
  });
  if (!readWorkbenchMarker()) return todo('the workbench is not installed here (npm run workbench:ensure); not measured');
  if (!existsSync(DEFAULT_VSIX_PATH)) return todo(`${DEFAULT_VSIX_PATH} is missing (npm run package); not measured`);

  const runDir = mkdtempSync(join(tmpdir(), 'smith-bench-activation-'));
  const report = join(runDir, 'activation.json');
  const workspace = join(runDir, 'workspace');
  mkdirSync(workspace);
  const started = performance.now();
  const workbench = await openWorkbench({ workspace, env: { SMITH_ACTIVATION_REPORT: report, SMITH_STORAGE: join(runDir, 'storage') } });
  try {
    const workbenchReadyMs = performance.now() - started;
    options.log(`activation: workbench usable after ${workbenchReadyMs.toFixed(0)} ms; opening the Smith view`);
    await workbench.openViewContainer('Smith');
    if (!(await waitForFile(report, 60_000))) return todo('Smith did not report its activation within 60 s');
    const timing = JSON.parse(readFileSync(report, 'utf8')) as { activationMs: number; loadAndActivationMs: number };
    const ratio = timing.loadAndActivationMs / workbenchReadyMs;
    return {
      results: {
        activation_ms: Number(timing.activationMs.toFixed(1)),
        load_and_activation_ms: Number(timing.loadAndActivationMs.toFixed(1)),
        workbench_ready_ms: Math.round(workbenchReadyMs),
        activation_ratio: Number(ratio.toFixed(4)),
      },
      rows: [
        {
          bench: 'startup',
          metric: 'extension load + activate() / workbench start-up, e2e workbench',
          value: `${(ratio * 100).toFixed(1)}%  (${timing.loadAndActivationMs.toFixed(0)} ms of ${Math.round(workbenchReadyMs)} ms; activate() alone ${timing.activationMs.toFixed(1)} ms)`,
          target: '',
          status: 'info',
        },
      ],
      notes: [],
    };
  } finally {
    await workbench.close();
    rmSync(runDir, { recursive: true, force: true });
  }
}
