// "Replay with…" on the panel's history items: a stored task run again with another model in a
// scratch copy of its workspace (see docs/replay.md), the comparison opened when it is done.
import { comparisonMarkdown } from '../core/replay/comparison-markdown.js';
import { type ReplayComparison, readReplaySource, replayTask } from '../core/replay/run-replay.js';
import type { Host } from '../core/ports.js';
import type { ApiProvider } from '../core/providers/types.js';

/** What the panel's replays need from the editor. */
interface PanelReplayDeps {
  readonly storageDir: string;
  /** Files, processes, ripgrep, clock and notices; a replay asks no one, so its approvals are never used. */
  readonly host: Host;
  /** The provider of the current settings with another model; undefined when the setup is incomplete. */
  provider(model: string): Promise<ApiProvider | undefined>;
  /** The model requests a replay may make. */
  maxIterations(): number;
  /** Shows a finished comparison (VS Code: an untitled Markdown editor). */
  show(suggestedName: string, markdown: string): Promise<void>;
}

/** The panel's replays: each runs in the background; the request that starts one returns at once. */
export class PanelReplays {
  private readonly running = new Map<string, { readonly controller: AbortController; readonly done: Promise<ReplayComparison | undefined> }>();

  constructor(private readonly deps: PanelReplayDeps) {}

  /** Starts replaying a stored task with `model`; throws (to the webview) when it cannot start. */
  async start(taskId: string, model: string): Promise<void> {
    const chosen = model.trim();
    if (chosen === '') throw new Error('Name the model to replay the task with.');
    // Read now, so a task that cannot be replayed (no checkpoints) is refused to the page that asked.
    readReplaySource(this.deps.storageDir, taskId);
    const provider = await this.deps.provider(chosen);
    if (!provider) throw new Error('Set up a model provider in Settings first: a replay uses its provider with the model you name.');
    const key = `${taskId} ${chosen}`;
    if (this.running.has(key)) throw new Error(`This task is already being replayed with ${chosen}.`);
    const controller = new AbortController();
    const { host } = this.deps;
    host.notify('info', `Replaying the task with ${chosen} in a scratch copy of its workspace; the comparison opens when it is done.`);
    const done = replayTask({
      storageDir: this.deps.storageDir,
      taskId,
      settings: { provider: () => provider, maxIterations: this.deps.maxIterations() },
      host,
      signal: controller.signal,
    })
      .then(async (comparison) => {
        await this.deps.show(`smith-replay-${comparison.replayId}.md`, comparisonMarkdown(comparison));
        return comparison;
      })
      .catch((error: unknown) => {
        host.notify('error', `The replay with ${chosen} failed: ${(error as Error).message}`);
        return undefined;
      })
      .finally(() => this.running.delete(key));
    this.running.set(key, { controller, done });
  }

  /** Settles when every replay running now has ended, with their comparisons (undefined for one that failed). */
  async settled(): Promise<(ReplayComparison | undefined)[]> {
    return Promise.all([...this.running.values()].map((r) => r.done));
  }

  /** Stops the running replays (their commands end with them). */
  dispose(): void {
    for (const { controller } of this.running.values()) controller.abort();
  }
}
