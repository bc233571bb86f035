// "Bisect…" on a task's checkpoints in the panel: asks for the test command, runs the bisect in
// the background with progress, and shows the step found, with its diff (see docs/bisect.md).
import { culpritFiles } from '../core/bisect/culprit-files.js';
import { readBisectSource } from '../core/bisect/bisect-steps.js';
import { runVerdictWords } from '../core/bisect/bisect-words.js';
import { type BisectReport, runBisect } from '../core/bisect/run-bisect.js';
import { DEFAULT_TEST_TIMEOUT_MS } from '../core/bisect/test-command.js';
import type { Host } from '../core/ports.js';
import type { BisectViews, CheckpointViews } from './panel-ports.js';

/** The command offered the first time in a workspace. */
const FIRST_COMMAND = 'npm test';
const SHOW_DIFF = 'Show diff';

/** What the panel's bisects need. */
interface PanelBisectDeps {
  readonly storageDir: string;
  readonly host: Pick<Host, 'notify'>;
  readonly views: BisectViews;
  readonly checkpointViews: Pick<CheckpointViews, 'showChanges'>;
}

/** The panel's bisects: one per task at a time, each in the background. */
export class PanelBisects {
  private readonly running = new Map<string, { readonly done: Promise<BisectReport | undefined>; readonly controller: AbortController }>();

  constructor(private readonly deps: PanelBisectDeps) {}

  /**
   * Asks for the test command and starts bisecting the task; resolves once it runs (or the user
   * cancelled), the result is shown when it ends. Throws (to the page that asked) when the task
   * cannot be bisected.
   */
  async start(taskId: string): Promise<void> {
    if (this.running.has(taskId)) throw new Error('This task is already being bisected.');
    const source = readBisectSource(this.deps.storageDir, taskId);
    if (source.states.length < 2)
      throw new Error(
        source.states.length === 0
          ? 'This task has no checkpoints (they were off, or nothing ran), so there is nothing to bisect.'
          : 'This task has only its first checkpoint (no step changed the workspace), so there is nothing to bisect.',
      );
    const { views } = this.deps;
    const command = (await views.askTestCommand(views.rememberedCommand(source.cwd) ?? FIRST_COMMAND))?.trim();
    if (!command) return;
    await views.remember(source.cwd, command);
    const controller = new AbortController();
    const done = views
      .withProgress(`Bisecting "${firstLine(source.task)}" with ${command}`, (report, signal) => {
        signal.addEventListener('abort', () => controller.abort(), { once: true });
        return runBisect({
          storageDir: this.deps.storageDir,
          taskId,
          command,
          timeoutMs: DEFAULT_TEST_TIMEOUT_MS,
          mode: 'binary',
          sandbox: { enabled: true, network: false, allowedHosts: [] },
          signal: controller.signal,
          onProgress: (progress) => {
            if (progress.kind === 'started' && progress.confinement === 'unavailable')
              this.deps.host.notify('warning', `The bisect's test runs unconfined: ${progress.sandboxReason}. It can change files outside the scratch copy.`);
            else if (progress.kind === 'testing') report(`checkpoint ${progress.checkpointId} of ${progress.states - 1}…`);
            else if (progress.kind === 'tested') report(`checkpoint ${progress.run.checkpointId}: ${runVerdictWords(progress.run, DEFAULT_TEST_TIMEOUT_MS)}`);
          },
        });
      })
      .then(async (report) => {
        await this.show(report);
        return report;
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) this.deps.host.notify('error', `The bisect failed: ${(error as Error).message}`);
        return undefined;
      })
      .finally(() => this.running.delete(taskId));
    this.running.set(taskId, { done, controller });
  }

  /** Settles when every bisect running now has ended, with their reports (undefined for one that failed or was stopped). */
  async settled(): Promise<(BisectReport | undefined)[]> {
    return Promise.all([...this.running.values()].map((r) => r.done));
  }

  /** Stops the running bisects (their tests end, their scratch copies are removed). */
  dispose(): void {
    for (const { controller } of this.running.values()) controller.abort();
  }

  private async show(report: BisectReport): Promise<void> {
    const culprit = report.culprit;
    const files = culprit ? ` Files: ${culprit.diff.files.map((f) => f.path).join(', ') || 'none the checkpoints kept'}.` : '';
    const chosen = await this.deps.views.showResult(`${report.message}${files}`, culprit !== undefined, culprit ? [SHOW_DIFF] : []);
    if (chosen !== SHOW_DIFF || !culprit) return;
    const changed = culpritFiles(this.deps.storageDir, report);
    await this.deps.checkpointViews.showChanges(
      `Bisect: checkpoint ${culprit.lastPassing} (passes) ↔ ${culprit.firstFailing} (fails)`,
      changed.map((file) => ({ path: file.path, absolutePath: file.absolutePath, before: file.before, after: file.after, existsNow: true })),
    );
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
